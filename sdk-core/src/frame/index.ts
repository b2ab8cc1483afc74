/**
 * `@svc/sdk-core/frame`: code that runs inside a frame or page on the service's origin, where card data may be typed.
 * Never imported by merchant-page code (sdk-elements/build.mjs checks the bundles).
 */
export { mountCardForm, CardForm, type CardInput, type CardValidation, type MountCardFormOptions } from './card-form';
export { CARD_FORM_HTML, renderCardForm } from './card-form-markup';
export { payWithCard, type CardPaymentOutcome, type CardPaymentRequest, type FrameSession } from './card-payment';
export { CardFrame, startCardFrame } from './card-frame-app';
export { awaitAuthentication, cancelAuthentication, outcomeOf, type Authenticate, type AuthenticationPrompt } from './card-authentication';
export { InstallmentsField } from './installments-field';
export { LazyInstallmentsField } from './lazy-installments-field';
export { followTransaction, type TransactionFollow } from './transaction-follow';
export { submitCardForm, type CardSubmitOutcome, type CardSubmitPayment } from './card-submit';
export { observeSize } from './observe-size';
export { composite, contrastRatio, luminance, readColour, type Rgba } from './colour-contrast';
export { applyReadable, hidingReason, MIN_ALPHA, MIN_CONTRAST } from './readable-look';
export { instanceIdFrom, languageFrom, parentOriginFrom } from './frame-url';
export { applyCardFormStyles, CARD_FORM_SELECTORS } from './styles';
export { applyCardFormStylesLazily, loadAppearanceCheck } from './lazy-look';
// The appearance checker runs where a look is applied on the service's origin (the card frame, the iframe widget page).
export { checkAppearance, THEMES, VARIABLE_PROPERTIES, type AppearanceTheme, type AppearanceVariable } from '../shared/appearance';
export * from './card-rules';
