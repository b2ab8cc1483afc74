import http from 'node:http';
import { createDemo } from './app';
import { loadDemoConfig } from './config';

let config;
try {
  config = loadDemoConfig();
} catch (error) {
  process.stderr.write(`demo-merchant: ${(error as Error).message}\n`);
  process.exit(1);
}
const { app, deps } = createDemo(config);
const server = http.createServer(app);
deps.live.start();
server.listen(config.DEMO_PORT, config.DEMO_HOST, () => {
  process.stdout.write(`demo merchant on http://localhost:${config.DEMO_PORT} (payment service ${config.SERVICE_URL})\n`);
});
const stop = () => {
  deps.live.stop();
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
