import http from 'node:http';
import { createDemoApp } from './app';
import { loadDemoConfig } from './config';

let config;
try {
  config = loadDemoConfig();
} catch (error) {
  process.stderr.write(`demo-merchant: ${(error as Error).message}\n`);
  process.exit(1);
}
const server = http.createServer(createDemoApp(config));
server.listen(config.DEMO_PORT, config.DEMO_HOST, () => {
  process.stdout.write(`demo merchant on http://localhost:${config.DEMO_PORT} (payment service ${config.SERVICE_URL})\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
