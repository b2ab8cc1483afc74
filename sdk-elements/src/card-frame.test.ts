/**
 * The built card frame (dist/card-frame.html + .js, served at /sdk/elements/1.1.1/) driven by this test page acting as
 * the host: handshake, typing, validation, the payment it sends itself, and forged messages it must ignore.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { cardFrameHeadingHtml, cardFrameTitleHtml } from '@svc/sdk-core/frame/markup';
import { EN } from '@svc/sdk-core/i18n';
import { calls, resetApiMock, startApiMock } from '@svc/sdk-core/testing/api-mock';
import { forge, otherOrigin, postFrom, sleep, waitFor } from '@svc/sdk-core/testing/helpers';
import {
  iframe,
  instanceId,
  received,
  HOST,
  frameToHost,
  messagesOf,
  lastValidation,
  frameDoc,
  input,
  send,
  init,
  submit,
  type,
  paste,
  fillValidCard,
  mountFrame,
  unmountFrame,
} from '../test/card-frame-host';

describe('card frame', () => {
  before(() => startApiMock());
  beforeEach(() => mountFrame());
  afterEach(() => {
    unmountFrame();
    resetApiMock();
  });

  it('says ready to its parent only, from its origin, with its instance id', async () => {
    const ready = await waitFor(() => received.find((entry) => entry.data.type === 'ready'), 'ready');
    expect(ready.origin).to.equal(location.origin);
    expect(ready.data).to.deep.equal({ source: 'svc-card-frame', instanceId, type: 'ready' });
    expect(frameToHost.safeParse(ready.data).success).to.equal(true);
  });

  it('starts in the language of its URL (`lang`) by itself, before its host sends any `locale`', async () => {
    unmountFrame();
    await mountFrame(location.origin, '&lang=he');
    const he = (await (await fetch('/sdk/locales/he.json')).json()) as Record<string, string>;
    // This host never answers `ready` nor sends `locale`: the frame loads the catalogue of its `lang` itself.
    await waitFor(() => frameDoc().documentElement.lang === 'he', 'the frame speaks he');
    expect(frameDoc().documentElement.dir).to.equal('rtl');
    expect(frameDoc().querySelector('label[for="number"]')!.textContent).to.equal(he['card.number.label']);
    expect(frameDoc().title, 'the page title').to.equal(he['widget.frame']);
    expect(frameDoc().querySelector('h1')!.textContent, 'the heading for screen readers').to.equal(he['card.form']);
    expect(getComputedStyle(input('number')).direction, 'the card number stays left to right').to.equal('ltr');
    expect(received.some((entry) => entry.data.type === 'ready')).to.equal(true);
  });

  it('is built with the title and heading the service translates (in en)', async () => {
    const page = await (await fetch('/sdk/elements/1.1.1/card-frame.html')).text();
    expect(page).to.contain(cardFrameTitleHtml()).and.to.contain(cardFrameHeadingHtml());
    expect(frameDoc().title).to.equal(EN['widget.frame']);
  });

  it('stays in en with a `lang` it does not speak', async () => {
    unmountFrame();
    await mountFrame(location.origin, '&lang=tlh');
    await waitFor(() => messagesOf('size').length > 0, 'size');
    expect(frameDoc().documentElement.lang).to.equal('en');
    expect(frameDoc().querySelector('label[for="number"]')!.textContent).to.equal('Card number');
  });

  it('is styled under a strict Content-Security-Policy (no inline style or script)', () => {
    expect(getComputedStyle(input('number')).borderRadius).to.equal('6px');
    expect(getComputedStyle(frameDoc().querySelector('h1')!).position, 'the heading is for screen readers').to.equal('absolute');
  });

  it('labels its fields and reports its size', async () => {
    for (const id of ['number', 'expiry', 'cvc']) {
      const label = frameDoc().querySelector(`label[for="${id}"]`);
      expect(label?.textContent, id).to.not.equal('');
      expect(input(id).getAttribute('aria-describedby')).to.contain(`${id}-error`);
    }
    const size = await waitFor(() => messagesOf('size').at(-1), 'size');
    expect(size.height).to.be.greaterThan(100);
    expect(size.width).to.equal(400);
  });

  it('formats the number as typed, shows the brand, and shows errors only after blur', async () => {
    await type('number', '4242424242424241');
    expect(input('number').value).to.equal('4242 4242 4242 4241');
    expect(frameDoc().getElementById('brand')!.textContent).to.equal('Visa');
    expect(input('number').getAttribute('aria-invalid'), 'not while typing').to.equal('false');
    const validation = await waitFor(() => lastValidation()?.brand === 'visa' && lastValidation(), 'validation');
    expect(validation.isValid).to.equal(false);
    expect(validation.errors.map((error) => error.field)).to.deep.equal(['number', 'expiry', 'cvc']);
    input('expiry').focus(); // blur the number
    expect(input('number').getAttribute('aria-invalid')).to.equal('true');
    expect(frameDoc().getElementById('number-error')!.textContent).to.equal('The card number is not valid.');
    // Fix the last digit: the error goes as soon as the number is valid.
    input('number').focus();
    input('number').setSelectionRange(19, 19);
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ type: '2' });
    expect(input('number').value).to.equal('4242 4242 4242 4242');
    expect(input('number').getAttribute('aria-invalid')).to.equal('false');
  });

  it('formats Amex 4-6-5, moves on by itself, and wants a 4-digit CVC', async () => {
    await type('number', '378282246310005');
    expect(input('number').value).to.equal('3782 822463 10005');
    expect(frameDoc().activeElement?.id, 'a complete number moves to the expiry').to.equal('expiry');
    await sendKeys({ type: '1230' });
    expect(input('expiry').value).to.equal('12/30');
    expect(frameDoc().activeElement?.id, 'a complete expiry moves to the CVC').to.equal('cvc');
    await sendKeys({ type: '12345' });
    expect(input('cvc').value).to.equal('1234');
    await waitFor(() => lastValidation()?.isValid, 'a valid card');
    expect(lastValidation()).to.include({ isValid: true, brand: 'amex' });
  });

  it('formats the expiry and refuses a past date', async () => {
    await type('expiry', '4');
    expect(input('expiry').value).to.equal('04/');
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ type: '0120' });
    expect(input('expiry').value).to.equal('01/20');
    input('number').focus();
    expect(frameDoc().getElementById('expiry-error')!.textContent).to.equal('The card has expired.');
    expect(input('expiry').getAttribute('aria-invalid')).to.equal('true');
  });

  it('refuses to pay without a session', async () => {
    await fillValidCard();
    const result = await submit({ amount: 1050, currency: 'USD' });
    expect(result).to.include({ ok: false });
    expect(result.ok === false && result.error.code).to.equal('frame_unavailable');
    expect(calls).to.have.length(0);
  });

  it('pays with the card itself and posts back only the transaction', async () => {
    init();
    await fillValidCard();
    const result = await submit({ amount: 1050, currency: 'USD', billingAddress: { zipcode: '12345' } });
    expect(frameToHost.safeParse(result).success, 'the result parses with the protocol schema').to.equal(true);
    expect(result.ok && result.transaction.status).to.equal(10);
    expect(calls).to.have.length(1);
    expect(calls[0]!.url).to.equal(`${location.origin}/sdk/sessions/ses_1/payments`);
    expect(calls[0]!.authorization).to.equal('Bearer tok_1');
    expect(calls[0]!.body).to.deep.equal({
      method: 'card',
      card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '737' },
      amount: 1050,
      currency: 'USD',
      billingAddress: { zipcode: '12345' },
    });
    expect(input('number').value, 'the card is not kept after paying').to.equal('');
    const everything = JSON.stringify(received);
    for (const secret of ['4242424242424242', '4242 4242', '737', '12/30']) expect(everything, `postMessages never carry ${secret}`).to.not.contain(secret);
  });

  it("reports declines and shows the server's field errors", async () => {
    init();
    paste('number', '4000000000000002');
    paste('expiry', '1230');
    paste('cvc', '123');
    const declined = await submit({ amount: 1050, currency: 'USD' });
    expect(declined.ok === false && declined.error.code).to.equal('card_declined');
    expect(input('number').readOnly, 'editable again').to.equal(false);

    paste('number', '4111111111111111');
    const invalid = await submit({ amount: 1050, currency: 'USD' });
    expect(invalid.ok === false && invalid.error.code).to.equal('invalid_card');
    expect(input('number').getAttribute('aria-invalid')).to.equal('true');
    expect(frameDoc().getElementById('number-error')!.textContent).to.match(/not valid/);
  });

  it('answers a submit with invalid fields by showing every error and focusing the first', async () => {
    init();
    await type('number', '4242');
    const result = await submit({ amount: 1050, currency: 'USD' });
    expect(result.ok === false && result.error.code, 'not a card the service refused: one not complete yet').to.equal('fields_incomplete');
    expect(['number', 'expiry', 'cvc'].map((id) => input(id).getAttribute('aria-invalid'))).to.deep.equal(['true', 'true', 'true']);
    expect(frameDoc().getElementById('cvc-error')!.textContent).to.equal('Enter the security code.');
    expect(frameDoc().activeElement?.id).to.equal('number');
    expect(calls).to.have.length(0);
  });

  it('has no accessibility violations, also with errors shown (axe, run inside the frame)', async () => {
    const script = frameDoc().createElement('script');
    script.src = '/sdk-elements/node_modules/axe-core/axe.min.js';
    await new Promise((resolve, reject) => {
      script.onload = resolve;
      script.onerror = reject;
      frameDoc().head.append(script);
    });
    const axe = (iframe.contentWindow as Window & { axe: typeof import('axe-core') }).axe;
    const violations = async () =>
      (await axe.run(frameDoc(), { resultTypes: ['violations'] })).violations.map((violation) => `${violation.id}: ${violation.help}`);
    expect(await violations()).to.deep.equal([]);
    init();
    await type('number', '4242');
    await submit();
    expect(input('number').getAttribute('aria-invalid')).to.equal('true');
    expect(await violations()).to.deep.equal([]);
  });

  it('clears on reset and focuses on request', async () => {
    await type('number', '4242');
    send({ type: 'reset' });
    await waitFor(() => input('number').value === '', 'cleared');
    input('cvc').focus();
    send({ type: 'focus' });
    await waitFor(() => frameDoc().activeElement?.id === 'number', 'focus on the number');
  });

  it('checks an appearance itself, applies it, and tells its host what it accepted and what it refused', async () => {
    await waitFor(() => messagesOf('ready').length, 'ready');
    send({
      type: 'appearance',
      appearance: {
        theme: 'night',
        variables: { colorText: 'transparent' },
        rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' }, '.Tab': { borderColor: 'var(--colorPrimary)', backgroundImage: 'url(/x.png)' } },
      },
    });
    await waitFor(() => getComputedStyle(input('number')).backgroundColor === 'rgb(1, 2, 3)', 'the rule on the card number');
    const look = await waitFor(() => received.find((entry) => entry.data.type === 'look'), 'the look message');
    expect(frameToHost.safeParse(look.data).success, 'a protocol message').to.equal(true);
    const { variables, rules, refusals } = look.data as { variables: [string, string][]; rules: Record<string, [string, string][]>; refusals: unknown[] };
    expect(variables, "the night theme's variables").to.deep.include(['--svc-color-background', '#1c1f26']);
    expect(variables, 'a refused variable keeps the theme value').to.deep.include(['--svc-color-text', '#f2f4f8']);
    expect(rules['.Tab']).to.deep.equal([['border-color', 'var(--svc-color-accent)']]);
    expect(rules['.Input']).to.deep.equal([['background-color', 'rgb(1, 2, 3)']]);
    expect(refusals.map((refusal) => (refusal as { path: string }).path)).to.deep.equal(['variables.colorText', 'rules[".Tab"].backgroundImage']);
  });

  describe('ignores messages it must not trust', () => {
    const forgedInit = () => ({
      source: HOST,
      instanceId,
      type: 'init',
      sessionId: 'ses_evil',
      sessionToken: 'tok_evil',
      apiBase: location.origin,
      debug: false,
    });
    const forgedSubmit = () => ({ source: HOST, instanceId, type: 'submit', requestId: 'evil' });

    async function expectNoSession(): Promise<void> {
      await fillValidCard();
      const result = await submit();
      expect(result.ok === false && result.error.code, 'the forged init was ignored').to.equal('frame_unavailable');
    }

    it('from another origin', async () => {
      await forge(forgedInit(), { origin: otherOrigin(), frame: 0 });
      await expectNoSession();
    });

    it('from another window of the right origin', async () => {
      await forge(forgedInit(), { frame: 0 });
      await expectNoSession();
    });

    it('from another window posting a submit', async () => {
      init();
      await fillValidCard();
      await forge(forgedSubmit(), { frame: 0 });
      await forge(forgedSubmit(), { origin: otherOrigin(), frame: 0 });
      await sleep(100);
      expect(messagesOf('result'), 'no result for forged submits').to.have.length(0);
      expect(calls).to.have.length(0);
    });

    it('from the parent with another instance id, or malformed', async () => {
      const target = iframe.contentWindow!;
      target.postMessage({ ...forgedInit(), instanceId: 'someoneelse1' }, location.origin);
      target.postMessage({ ...forgedInit(), extra: true }, location.origin);
      target.postMessage({ ...forgedInit(), source: 'svc-card-frame' }, location.origin);
      target.postMessage(JSON.stringify(forgedInit()), location.origin);
      target.postMessage(null, location.origin);
      await sleep(50);
      await expectNoSession();
    });

    it('from its parent when the parent is not the origin it was created for', async () => {
      unmountFrame();
      await mountFrame(otherOrigin(), '&testNoFrameAncestors=1'); // the frame expects a parent on the other origin
      await sleep(100);
      expect(received, 'its ready went to the other origin only (the browser drops it here)').to.have.length(0);
      send({ type: 'init', sessionId: 'ses_1', sessionToken: 'tok_1', apiBase: location.origin, debug: false });
      await fillValidCard();
      send({ type: 'submit', requestId: 'x1', amount: 1050, currency: 'USD' });
      await sleep(200);
      expect(calls, 'no payment was attempted').to.have.length(0);
    });

    it('an init naming an API on another origin', async () => {
      send({ type: 'init', sessionId: 'ses_1', sessionToken: 'tok_1', apiBase: otherOrigin(), debug: false });
      await expectNoSession();
    });

    it('a message sent from inside another same-origin frame (event.source is not the parent)', async () => {
      const other = document.createElement('iframe');
      other.src = 'about:blank';
      document.body.append(other);
      postFrom(other.contentWindow!, iframe.contentWindow!, forgedInit(), location.origin);
      await sleep(50);
      other.remove();
      await expectNoSession();
    });
  });

  it('stays inert when opened without an origin parameter', async () => {
    const bare = document.createElement('iframe');
    bare.src = `/sdk/elements/1.1.1/card-frame.html?testNoFrameAncestors=1#instance=${instanceId}`;
    document.body.append(bare);
    await new Promise((resolve) => bare.addEventListener('load', resolve, { once: true }));
    await waitFor(() => (bare.contentDocument!.getElementById('number') as HTMLInputElement).disabled, 'disabled inputs');
    bare.remove();
  });
});
