import { LANGUAGES } from '@svc/protocol';
import { CARD_FORM_HTML, cardFormHtml, cardFrameHeadingHtml, cardFrameTitleHtml } from '@svc/sdk-core/frame/markup';
import { directionOf, type Language } from '@svc/sdk-core/i18n';
import { translator } from '../../i18n';

/** The card frame's `lang` parameter (the language the widget asked for), if it is exactly one of the languages. */
export function frameLanguage(value: unknown): Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : 'en';
}

/**
 * The built card frame page (card-frame.html: `<html lang="en">`, its title, heading and card form in `en`) in
 * `language`: its `lang` and `dir`, its title and heading, and the card form's labels and names, as the frame's script
 * would draw them once its catalogue loaded, so
 * that the first paint is already in the widget's language. `en` is the built page unchanged; so is a page whose
 * markup is not the one this service builds (the frame's script still switches it).
 */
export function cardFramePage(built: Buffer, language: Language): Buffer {
  if (language === 'en') return built;
  const page = built.toString('utf8');
  if (!page.includes('<html lang="en">') || !page.includes(CARD_FORM_HTML)) return built;
  const t = translator(language);
  const rendered = page
    .replace('<html lang="en">', `<html lang="${language}" dir="${directionOf(language)}">`)
    .replace(cardFrameTitleHtml(), () => cardFrameTitleHtml(t))
    .replace(cardFrameHeadingHtml(), () => cardFrameHeadingHtml(t))
    .replace(CARD_FORM_HTML, () => cardFormHtml(t));
  return Buffer.from(rendered, 'utf8');
}
