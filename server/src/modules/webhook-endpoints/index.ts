/** The webhook endpoints module's public surface: the merchant's endpoints, by API and CLI. */
export { webhookEndpointsRoutes } from './webhook-endpoints.routes';
export { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, updateWebhookEndpoint } from './webhook-endpoints.service';
