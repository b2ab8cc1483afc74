/**
 * The 3-D Secure dialog (authentication-dialog.ts) with its code loaded the first time one is shown: only a payment
 * the bank challenges needs it, so the SDKs' bundles leave it in a script of its own (shared/lazy-script.ts). The
 * page is checked at once (one the dialog refuses throws here, as the dialog does); the dialog opens as soon as its
 * code is there, unless it was closed before. If the code cannot be loaded the shopper cannot authenticate: that counts
 * as cancelled (`onCancel`), and the payment ends as a cancelled authentication does.
 */
import { lazyScript } from '../shared/lazy-script';
import { checkServicePage, type AuthenticationDialog, type AuthenticationDialogOptions } from './authentication-dialog';

/** What the widgets keep of an open dialog. */
export interface AuthenticationDialogHandle {
  setTexts(texts: AuthenticationDialogOptions['texts']): void;
  close(): void;
}

/**
 * Opens the dialog; `baseUrl` is the folder of the SDK's files, where its lazy script is served. `onShown` hears when
 * the dialog is there (not for one closed before); `onLoadFailed` why it never will be, before `onCancel` (for the
 * widget's debug log: a script that could not be loaded is not a shopper who cancelled).
 */
export function openAuthenticationDialog(
  options: AuthenticationDialogOptions,
  baseUrl: string,
  onShown: () => void = () => undefined,
  onLoadFailed: (error: unknown) => void = () => undefined,
): AuthenticationDialogHandle {
  checkServicePage(options.url, options.serviceOrigin);
  let texts = options.texts;
  let dialog: AuthenticationDialog | null = null;
  let closed = false;
  lazyScript<typeof AuthenticationDialog>('authentication-dialog', baseUrl, () =>
    import('./authentication-dialog').then((module) => module.AuthenticationDialog),
  ).then(
    (Dialog) => {
      if (closed) return;
      dialog = new Dialog({ ...options, texts });
      onShown();
    },
    (error: unknown) => {
      if (closed) return;
      onLoadFailed(error);
      options.onCancel();
    },
  );
  return {
    setTexts: (next) => {
      texts = next;
      dialog?.setTexts(next);
    },
    close: () => {
      closed = true;
      dialog?.close();
    },
  };
}
