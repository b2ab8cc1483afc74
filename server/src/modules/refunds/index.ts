/** What other modules use of refunds: its processor operation (the registry the processor-request worker uses). */
export { refundOperation } from './refunds.service';
