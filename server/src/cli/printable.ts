/** C0 controls (ESC among them), DEL and C1 controls (CSI among them): what a terminal acts on instead of showing. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const escaped = (char: string): string => {
  const json = JSON.stringify(char).slice(1, -1);
  return json.length > 1 ? json : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
};

/**
 * Stored text as the CLI prints it: every control character written as its escape (`\u001b`, `\n`), so a value that
 * came from outside (a processor's error message, a request key) cannot recolour, move the cursor or rewrite the
 * operator's screen.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escaped);
}

/**
 * JSON for the terminal: JSON.stringify already escapes C0 controls, but leaves DEL and the C1 controls as they are;
 * they can only stand inside strings, where `\u…` is the same text.
 */
export function printableJson(value: unknown): string {
  return JSON.stringify(value).replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
