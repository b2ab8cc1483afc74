/**
 * The `en` catalogue: the source of every key (its keys are the catalogue's type) and the texts the bundles carry.
 * It is split by surface so that each bundle inlines only the part it shows (the card fields, the widget, Express,
 * the consumer pages); the other languages are whole JSON files (locales/<language>.json) that the service publishes
 * at /sdk/locales/<language>.json and the bundles load when a page asks for that language. Placeholders are `{name}`.
 * The QA names (docs/integrating.md#accessible-names) are this catalogue's entries: changing one is a breaking change.
 */

/** The card number, expiry and security code fields (card frame, iframe widget, hosted page). */
export const EN_CARD = {
  'card.form': 'Card details',
  'card.number.label': 'Card number',
  'card.number.placeholder': '1234 1234 1234 1234',
  'card.expiry.label': 'Expiry date (MM/YY)',
  'card.expiry.placeholder': 'MM/YY',
  'card.cvc.label': 'Security code (CVC)',
  'card.cvc.placeholder': 'CVC',
  'card.number.missing': 'Enter the card number.',
  'card.number.incomplete': 'The card number is incomplete.',
  'card.number.invalid': 'The card number is not valid.',
  'card.expiry.missing': 'Enter the expiry date.',
  'card.expiry.incomplete': 'The expiry date is incomplete. Use MM/YY.',
  'card.expiry.month': 'The expiry month must be between 01 and 12.',
  'card.expiry.expired': 'The card has expired.',
  'card.expiry.far': 'The expiry date is too far in the future.',
  'card.cvc.missing': 'Enter the security code.',
  'card.cvc.length': 'The security code must be {digits} digits.',
} as const;

/** What Elements' card frame is called: its iframe's title (`widget.frame`), and its page's (EN_CARD_FRAME). */
const CARD_FRAME_NAME = 'Secure card payment form';

/** The payment widget (Elements and the iframe widget): method choice, statuses, and what a shopper reads of an error. */
export const EN_WIDGET = {
  'widget.heading': 'Payment',
  'widget.methods': 'Payment method',
  'method.card': 'Card',
  'method.paypal': 'PayPal',
  'method.applepay': 'Apple Pay',
  'method.googlepay': 'Google Pay',
  'widget.frame': CARD_FRAME_NAME,
  'widget.iframe': 'Payment form',
  'widget.loading': 'Loading payment methods…',
  'widget.paying': 'Processing the payment…',
  'widget.accepted': 'Payment accepted. The merchant will confirm your order.',
  'widget.success': 'Payment accepted.',
  'widget.wallet': '{wallet} is used when you pay.',
  'widget.wallet.sandbox': '{wallet} is used when you pay (sandbox: approved without a real wallet).',
  'widget.retry': 'Try again',
  'error.card_declined': 'Your card was declined. Try another card or payment method.',
  'error.insufficient_funds': 'Your card has insufficient funds. Try another card or payment method.',
  'error.invalid_card': 'Check your card details and try again.',
  'error.processor_failure': 'The payment could not be processed and nothing was charged. Try again in a moment.',
  'error.network_error': 'The payment service could not be reached. Check your connection and try again.',
  'error.session_expired': 'Your payment session expired. Please pay again.',
  'error.payment_cancelled': 'The payment was cancelled. Nothing was charged.',
  'error.fields_incomplete': 'Fill in your card details to pay.',
  'error.unavailable': 'Payment is not available right now. Please try again later.',
  'error.unexpected': 'Something went wrong and nothing was charged. Please try again.',
} as const;

/** The Elements card frame page: the card fields, and what the frame is (its `<title>`). */
export const EN_CARD_FRAME = { ...EN_CARD, 'widget.frame': CARD_FRAME_NAME } as const;

/** Express: the wallet buttons and the sandbox wallet sheet. */
export const EN_EXPRESS = {
  'express.payWith': 'Pay with {wallet}',
  'express.paying': 'Paying with {wallet}…',
  'express.total': 'Total',
  'sheet.total': 'Total {amount}',
  'sheet.sandbox': '(sandbox: no money moves)',
  'sheet.billing': 'Billing details',
  'sheet.shipping': 'Shipping details',
  'sheet.sameAddress': 'Ship to the billing address',
  'sheet.firstName': 'First name',
  'sheet.lastName': 'Last name',
  'sheet.address1': 'Address line 1',
  'sheet.address2': 'Address line 2 (optional)',
  'sheet.city': 'City',
  'sheet.state': 'State or region',
  'sheet.postalCode': 'Postal code',
  'sheet.country': 'Country code',
  'sheet.email': 'Email',
  'sheet.pay': 'Pay',
  'sheet.cancel': 'Cancel',
} as const;

/** The consumer pages the service renders (hosted payment page, sticker page, terminal simulator) and the link texts. */
export const EN_PAGES = {
  'page.language': 'Language',
  'page.paymentTo': 'Payment to',
  'page.noAmount': 'The merchant has not set the amount of this payment yet.',
  'page.waiting': 'Waiting for your payment',
  'page.timeLeft': 'Time left to pay:',
  'page.processing': 'Processing your payment…',
  'page.unreachable': 'The payment service could not be reached. Check your connection, then try again.',
  'page.tooMany': 'Too many attempts. Wait a moment, then try again.',
  'page.notThrough': 'The payment did not go through. Check the details or use another card, then try again.',
  'page.checkCard': 'Check your card details.',
  'page.declined': 'Payment declined',
  'page.declined.text': 'The payment was declined and nothing was charged. You can try again with another card or a wallet.',
  'page.approved': 'Payment approved',
  'page.approved.text': 'Thank you. Keep the confirmation number for your records.',
  'page.refunded': 'Payment refunded',
  'page.refunded.text': 'The merchant gave money back to your payment method; it may take a few days to show.',
  'page.refundedAmount': 'Refunded',
  'page.failed': 'Payment failed',
  'page.failed.text': 'The payment could not be processed and nothing was charged. Ask the merchant for a new payment link.',
  'page.cancelled': 'Payment cancelled',
  'page.cancelled.text': 'The merchant cancelled this payment. Nothing was charged.',
  'page.timedOut': 'Payment timed out',
  'page.timedOut.text': 'The time to pay this link has run out. Ask the merchant for a new payment link.',
  'page.expired': 'Payment expired',
  'page.expired.text': 'This payment has expired and anything reserved on your card was released.',
  'page.elsewhere': 'Payment not available here',
  'page.elsewhere.text': "This payment is made in the merchant's own checkout, not on this page.",
  'page.amount': 'Amount',
  'page.merchant': 'Merchant',
  'page.paidTo': 'Paid to',
  'page.confirmation': 'Confirmation number',
  'page.card': 'Card',
  'page.cardEnding': 'ending in {digits}',
  'page.reserved': 'The amount is reserved on your payment method; the merchant charges it when your order is ready.',
  'page.order': 'Order ({currency})',
  'page.item': 'Item',
  'page.quantity': 'Qty',
  'page.lineTotal': 'Total',
  'page.tryAgain': 'Try again',
  'page.pay': 'Pay',
  'page.payAmount': 'Pay {amount} {currency}',
  'page.noscript': 'Turn on JavaScript in your browser to pay on this page.',
  'page.linkNotFound': 'Payment link not found',
  'page.stickerNotFound': 'Sticker not found',
  'page.notFound.text': 'Check the link, or ask the merchant for a new one.',
  'sticker.waiting': 'No payment is waiting',
  'sticker.notStarted': 'The cashier has not started a payment on this terminal yet.',
  'sticker.opensItself': 'This page opens the payment by itself as soon as there is one.',
  'sticker.retired': 'This sticker is no longer in use. Ask the cashier.',
  'terminal.title': 'Terminal simulator (sandbox)',
  'terminal.heading': 'Terminal simulator',
  'terminal.intro': "Sandbox only. Plays a payment terminal: it shows the device's pending transaction and taps test cards and wallets on it.",
  'terminal.deviceId': 'Device ID',
  'terminal.connect': 'Connect',
  'terminal.hint': 'Type the device ID, or open this page as /sandbox/terminal#dev_… .',
  'terminal.none': 'No payment is waiting',
  'terminal.none.text': 'A transaction created for this device appears here at once.',
  'terminal.paymentTo': 'Payment to {business}',
  'terminal.transaction': 'Transaction {number}: {status}',
  'terminal.tap': 'Tap {name}',
  'terminal.cancel': 'Cancel as the consumer',
  'terminal.processing': 'Processing…',
  'terminal.result.card': '{status} (card ending in {digits})',
  'terminal.done': 'Done.',
  'terminal.refused': 'Refused: {reason}',
  'terminal.unreachable': 'The service could not be reached.',
  'terminal.unexpected': 'The service answered something unexpected; reload the page.',
  'terminal.revoked': 'This device ID was revoked; the simulator is disconnected.',
  'terminal.notDevice': 'That is not a device ID: device IDs start with dev_.',
  'terminal.connecting': 'Connecting…',
  'terminal.unknown': 'This device ID is unknown or revoked; nothing is connected.',
  'terminal.connected': 'Connected. Transactions created for this device appear here as they are made.',
  'link.sms': '{business} asks you to pay {amount} {currency}: {url}',
  'link.sms.noAmount': '{business} asks you to approve a payment: {url}',
  'link.email.greeting': 'Hello,',
  'link.email.ask': '{business} asks you to pay {amount} {currency}.',
  'link.email.ask.noAmount': '{business} asks you to approve a payment.',
  'link.email.link': 'Pay securely here: {url}',
  'link.email.note': 'The page shows what you are paying for before you pay. If you did not expect this message, you can ignore it.',
} as const;

export const EN = { ...EN_CARD, ...EN_WIDGET, ...EN_EXPRESS, ...EN_PAGES } as const;

/** Every key of every catalogue. */
export type TextKey = keyof typeof EN;
/** A whole catalogue: one text per key. */
export type Catalogue = Record<TextKey, string>;
