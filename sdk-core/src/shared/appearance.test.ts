/**
 * The appearance checker against hostile appearances: URLs in every property, escapes, comments, var() chains, very
 * long values, properties that would hide a field. Each case must end with nothing that could load anything or hide
 * anything in what is accepted; and applied to the real card form in a page, nothing is loaded and every field stays
 * visible (a control frame given the raw URL does load it, so the page would notice a load).
 */
import { expect } from '@open-wc/testing';
import { APPEARANCE_SELECTORS, APPEARANCE_VARIABLES } from '@svc/protocol/light';
import { cardFormPage } from '../testing/card-form-page';
import { applyCardFormStyles } from '../frame/styles';
import { waitFor } from '../testing/helpers';
import { checkAppearance } from './appearance';
import { appearanceCss, type CheckedAppearance } from './appearance-css';

const PROBE = '/__appearance-probe__';
const LOADERS = [
  `url(${PROBE}/a.png)`,
  `url("${PROBE}/b.png")`,
  `URL(${PROBE}/c.png)`,
  `image-set("${PROBE}/d.png" 1x)`,
  `-webkit-image-set(url(${PROBE}/e.png) 1x)`,
  `u\\rl(${PROBE}/f.png)`,
  `\\75 rl(${PROBE}/g.png)`,
  `url(${PROBE}/h.png`,
  `expression(alert(1))`,
  `red;background-image:url(${PROBE}/i.png)`,
  `red}body{background:url(${PROBE}/j.png)}`,
  `@import url(${PROBE}/k.css)`,
  `@import "${PROBE}/l.css"`,
  `u/**/rl(${PROBE}/m.png)`,
  `red /* } :root{background:url(${PROBE}/n.png)} */`,
  `cross-fade(url(${PROBE}/o.png), red 50%)`,
  `image(${PROBE}/p.png)`,
  `element(#number)`,
  `attr(data-x url)`,
  `src(${PROBE}/q.png)`,
  `linear-gradient(red, blue), url(${PROBE}/r.png)`,
  `var(--colorPrimary, url(${PROBE}/s.png))`,
  `var(--svc-color-accent)`,
  `VAR(--svc-color-accent)`,
  `var(--x)`,
  `red\nbackground:url(${PROBE}/t.png)`,
  `"${PROBE}/u.png"`,
  `javascript:alert(1)`,
  `red !important`,
  `${'a'.repeat(5_000)}`,
  `rgb(${'1,'.repeat(300)}1)`,
  `linear-gradient(${'red,'.repeat(100)}blue)`,
  `calc(${'('.repeat(200)}1px${')'.repeat(200)})`,
  `${' '.repeat(10_000)}x(`,
];

/** Every property of every kind, so that each hostile value is tried in every place a value goes. */
const PROPERTIES = [
  'color',
  'backgroundColor',
  'background',
  'backgroundImage',
  'border',
  'borderColor',
  'borderRadius',
  'boxShadow',
  'fontFamily',
  'fontSize',
  'fontWeight',
  'lineHeight',
  'letterSpacing',
  'padding',
  'margin',
  'outline',
  'outlineOffset',
  'transition',
  'textTransform',
];

const hostileAppearance = (value: string) => ({
  theme: 'night',
  variables: Object.fromEntries(APPEARANCE_VARIABLES.map((name) => [name, value])),
  rules: Object.fromEntries(APPEARANCE_SELECTORS.map((selector) => [selector, Object.fromEntries(PROPERTIES.map((property) => [property, value]))])),
});

/** Everything the checker accepted, as one text: what would reach a style sheet. */
const acceptedText = (checked: CheckedAppearance): string =>
  appearanceCss(checked, ':root', Object.fromEntries(APPEARANCE_SELECTORS.map((s) => [s, `.x${s.length}`])));

function expectHarmless(checked: CheckedAppearance): void {
  const text = acceptedText(checked);
  expect(text, 'nothing that loads').to.not.match(/url|image-set|image\(|@import|expression|cross-fade|element\(|attr\(|src\(|\\|\/\*/i);
  for (const [property] of Object.values(checked.rules).flat()) {
    expect(property, 'nothing that hides').to.not.match(/^(?:display|visibility|opacity|position|width|height|clip|transform|content|overflow|z-index|inset)/);
  }
  for (const match of text.matchAll(/var\(([^)]*)\)/gi)) expect(match[1], 'var() of an appearance variable only').to.match(/^--svc-[a-z-]+$/);
}

describe('checkAppearance', () => {
  it('takes the theme, variables and rules in the shape of Stripe’s Appearance API', () => {
    const checked = checkAppearance({
      theme: 'flat',
      variables: { colorPrimary: '#0570de', fontFamily: 'Ideal Sans, "Segoe UI", system-ui, sans-serif', spacingUnit: '3px', borderRadius: '8px' },
      rules: {
        '.Input': { borderColor: '#e0e6eb', boxShadow: '0px 1px 1px rgba(0, 0, 0, 0.03), 0px 3px 6px rgba(18, 42, 66, 0.02)' },
        '.Input:focus': { borderColor: 'var(--colorPrimary)', outline: '2px solid var(--colorPrimary)' },
        '.Tab--selected': { backgroundColor: 'hsl(210 100% 96%)', transition: 'border-color 0.15s ease, box-shadow 150ms cubic-bezier(0.4, 0, 0.2, 1)' },
        '.Label': { fontWeight: '600', textTransform: 'uppercase', letterSpacing: '0.02em' },
      },
    });
    expect(checked.refusals).to.deep.equal([]);
    expect(new Map(checked.variables).get('--svc-color-accent')).to.equal('#0570de');
    expect(new Map(checked.variables).get('--svc-color-input'), 'the flat theme’s own fill').to.equal('#eceef2');
    expect(checked.rules['.Input:focus']).to.deep.equal([
      ['border-color', 'var(--svc-color-accent)'],
      ['outline', 'clamp(0px, 2px, 8px) solid var(--svc-color-accent)'],
    ]);
    expect(checked.rules['.Tab--selected']![0]).to.deep.equal(['background-color', 'hsl(210 100% 96%)']);
  });

  it('without an appearance: the default theme, nothing refused', () => {
    const checked = checkAppearance(undefined);
    expect(checked.refusals).to.deep.equal([]);
    expect(new Map(checked.variables).get('--svc-color-accent')).to.equal('#1456d8');
    expect(checked.rules).to.deep.equal({});
  });

  it('names what it refuses: an unknown theme, variable, selector or property', () => {
    const checked = checkAppearance({
      theme: 'dark',
      variables: { colorPrimry: 'red' },
      rules: { '.Tab:hover': { color: 'red' }, '.Input': { display: 'none', opacity: '0', width: '0', position: 'absolute', backgroundColor: 'red' } },
    });
    expect(checked.refusals.map((refusal) => refusal.path)).to.deep.equal([
      'theme',
      'variables.colorPrimry',
      'rules[".Tab:hover"]',
      'rules[".Input"].display',
      'rules[".Input"].opacity',
      'rules[".Input"].width',
      'rules[".Input"].position',
    ]);
    expect(checked.rules['.Input']).to.deep.equal([['background-color', 'red']]);
  });

  for (const value of LOADERS) {
    it(`refuses everywhere, and accepts nothing that loads: ${JSON.stringify(value.slice(0, 60))}`, () => {
      const checked = checkAppearance(hostileAppearance(value));
      expectHarmless(checked);
      // Not one of these is a value any property may take.
      const accepted = Object.values(checked.rules).flat().length;
      const ownVariables = checked.variables.filter(
        ([name]) => name.startsWith('--svc-') && new Map(checkAppearance({ theme: 'night' }).variables).get(name) !== value,
      );
      expect(accepted, 'declarations accepted').to.equal(0);
      expect(ownVariables.length, 'the theme’s variables only').to.equal(checked.variables.length);
      expect(checked.refusals.length).to.equal(APPEARANCE_VARIABLES.length + APPEARANCE_SELECTORS.length * PROPERTIES.length);
    });
  }

  it('refuses what would hide a field or its text, and bounds every size', () => {
    const hide = {
      '.Input': {
        color: 'transparent',
        fontSize: '0',
        padding: '500px',
        margin: '-1000px',
        borderWidth: '300px',
        boxShadow: '0 0 0 2000px #000',
        letterSpacing: '-200px',
        lineHeight: '0',
        outlineOffset: '-900px',
      },
      '.Label': { color: 'rgba(0, 0, 0, 0)', fontSize: '1px', marginBlockStart: 'calc(0px - 40px)', textShadow: '0 0 0 #000' },
      '.Error': { color: '#0000', fontSize: '0.1rem', margin: '-1px' },
    };
    const checked = checkAppearance({ rules: hide, variables: { colorText: 'rgb(0 0 0 / 0%)', fontSizeBase: '2px', spacingUnit: '40px' } });
    expect(checked.rules).to.deep.equal({ '.Label': [['text-shadow', '0 0 0 #000']] });
    expect(checked.refusals).to.have.length(Object.values(hide).flatMap(Object.keys).length - 1 + 3);
  });

  it('refuses var() chains: a variable naming another, a rule naming a custom property of its own', () => {
    const checked = checkAppearance({
      variables: { colorPrimary: 'var(--colorText)', colorText: 'var(--colorPrimary)' },
      rules: { '.Input': { color: 'var(--colorText)', borderColor: 'var(--colorPrimary, red)', backgroundColor: 'var(--svc-color-text)' } },
    });
    expect(checked.refusals.map((refusal) => refusal.path)).to.deep.equal([
      'variables.colorPrimary',
      'variables.colorText',
      'rules[".Input"].borderColor',
      'rules[".Input"].backgroundColor',
    ]);
    expect(checked.rules['.Input']).to.deep.equal([['color', 'var(--svc-color-text)']]);
    expectHarmless(checked);
  });

  it('a very long or deeply nested value is refused quickly, as a whole', () => {
    for (const value of ['a'.repeat(100_000), `${'-'.repeat(150)}x`, `${'a '.repeat(99)}(`, `"${'a'.repeat(150)}`]) {
      const checked = checkAppearance({ variables: { fontFamily: value }, rules: { '.Label': { fontFamily: value, transitionProperty: value } } });
      expectHarmless(checked);
      expect(checked.refusals.map((refusal) => refusal.path)).to.include('variables.fontFamily');
    }
  });

  it('takes anything as input without throwing', () => {
    for (const input of [
      null,
      42,
      'night',
      [],
      { variables: [] },
      { rules: { '.Input': 'red' } },
      { rules: { '.Input': { color: 42 } } },
      { variables: { colorText: {} } },
    ]) {
      expectHarmless(checkAppearance(input));
    }
  });
});

describe('the card form with a hostile appearance', () => {
  const frames: HTMLIFrameElement[] = [];
  afterEach(() => frames.splice(0).forEach((frame) => frame.remove()));

  const page = () => cardFormPage(frames);

  const loaded = (doc: Document) => doc.defaultView!.performance.getEntriesByType('resource').filter((entry) => entry.name.includes(PROBE));

  it('loads nothing and hides no field, whatever it is given', async () => {
    // The control: raw CSS with the probe's URL does load it, so a load would be seen.
    const control = await page();
    const raw = new control.defaultView!.CSSStyleSheet();
    raw.replaceSync(`input{background-image:url(${PROBE}/control.png)}`);
    control.adoptedStyleSheets = [raw];

    const doc = await page();
    const apply = applyCardFormStyles(doc);
    let refused = 0;
    for (const value of LOADERS) refused += apply(hostileAppearance(value)).refusals.length;
    // The last one stays applied; all of them together once more, as one appearance's rules.
    refused += apply({
      theme: 'night',
      rules: Object.fromEntries(
        APPEARANCE_SELECTORS.map((selector, index) => [selector, { background: LOADERS[index]!, color: 'transparent', fontSize: '0' }]),
      ),
    }).refusals.length;
    expect(refused).to.be.greaterThan(0);
    await waitFor(() => loaded(control).length > 0, 'the control frame loading its probe');
    expect(loaded(doc), 'what the checked appearance loaded').to.deep.equal([]);
    for (const id of ['number', 'expiry', 'cvc']) {
      const input = doc.getElementById(id)!;
      const style = doc.defaultView!.getComputedStyle(input);
      const box = input.getBoundingClientRect();
      expect(box.width, `${id} width`).to.be.greaterThan(40);
      expect(box.height, `${id} height`).to.be.greaterThan(20);
      expect(box.left >= 0 && box.top >= 0 && box.right <= 420, `${id} inside the frame`).to.equal(true);
      expect([style.display === 'none', style.visibility, style.opacity], `${id} shown`).to.deep.equal([false, 'visible', '1']);
      expect(parseFloat(style.fontSize), `${id} text size`).to.be.at.least(10);
      expect(style.color, `${id} text colour`).to.not.match(/rgba\(.*, 0\)$/);
    }
  });

  it('a new appearance replaces the last one at once, keeping what was typed', async () => {
    const doc = await page();
    const apply = applyCardFormStyles(doc);
    const input = doc.getElementById('number') as HTMLInputElement;
    input.value = '4242 4242';
    apply({ theme: 'night', rules: { '.Input': { backgroundColor: 'rgb(1, 2, 3)' } } });
    expect(doc.defaultView!.getComputedStyle(input).backgroundColor).to.equal('rgb(1, 2, 3)');
    apply({ theme: 'flat' });
    expect(doc.defaultView!.getComputedStyle(input).backgroundColor).to.equal('rgb(236, 238, 242)');
    expect(input.value).to.equal('4242 4242');
  });
  it('bounds every length by what it computes to, not by its numbers: each is wrapped in clamp() with its bounds', () => {
    const checked = checkAppearance({
      variables: { spacingUnit: 'calc(8px / 0.01)', fontSizeBase: '16px' },
      rules: {
        '.Input': { padding: 'calc(32px / 0.02) 2em', margin: 'var(--borderRadius)', boxShadow: '0 1px 2px rgba(0, 0, 0, 0.1)', border: '1px solid red' },
        '.Label': { fontSize: '120%', lineHeight: '1.5' },
      },
    });
    expect(checked.refusals).to.deep.equal([]);
    const variables = new Map(checked.variables);
    expect(variables.get('--svc-spacing-unit')).to.equal('clamp(0px, calc(8px / 0.01), 8px)');
    expect(variables.get('--svc-font-size')).to.equal('clamp(10px, 16px, 40px)');
    expect(checked.rules['.Input']).to.deep.equal([
      ['padding', 'clamp(0px, calc(32px / 0.02), 32px) clamp(0px, 2em, 32px)'],
      ['margin', 'clamp(0px, var(--svc-radius), 32px)'],
      ['box-shadow', '0 clamp(-24px, 1px, 24px) clamp(-24px, 2px, 24px) rgba(0, 0, 0, 0.1)'],
      ['border', 'clamp(0px, 1px, 8px) solid red'],
    ]);
    expect(checked.rules['.Label']).to.deep.equal([
      ['font-size', 'clamp(10px, 120%, 40px)'],
      ['line-height', '1.5'],
    ]);
  });
});
