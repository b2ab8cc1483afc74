/** The hosted page's face for other modules' query files (`*.queries.ts`): which transactions a payment link takes a payment on. */
export { LINK_PAYABLE_METHOD_TYPES } from './link-payable';
