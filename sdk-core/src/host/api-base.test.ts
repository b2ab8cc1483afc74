import { expect } from '@open-wc/testing';
import { detectApiBase, installUnlessLoaded } from './api-base';

describe('detectApiBase', () => {
  const script = (attributes: Record<string, string>) => {
    const element = document.createElement('script');
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    return element;
  };

  it('is the origin of the script URL', () => {
    expect(detectApiBase(script({ src: 'https://pay.example.com/sdk/elements/1.1.1/sdk.js' }), 'https://shop.example/checkout')).to.deep.equal({
      apiBase: 'https://pay.example.com',
      guessed: false,
    });
    expect(detectApiBase(script({ src: '/sdk/elements/1.1.1/sdk.js' }), 'https://shop.example/checkout').apiBase).to.equal('https://shop.example');
  });

  it('data-api-base wins', () => {
    expect(detectApiBase(script({ src: 'https://cdn.example/sdk.js', 'data-api-base': 'http://127.0.0.1:8080/' }), 'https://shop.example/').apiBase).to.equal(
      'http://127.0.0.1:8080',
    );
  });

  it('falls back to the page origin, flagged as a guess', () => {
    expect(detectApiBase(null, 'https://shop.example/x')).to.deep.equal({ apiBase: 'https://shop.example', guessed: true });
  });
});

describe('installUnlessLoaded', () => {
  it('lets the first copy install, and has a second warn once by code and do nothing', () => {
    const warnings: string[] = [];
    const installed: string[] = [];
    const { warn } = console;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      installUnlessLoaded(false, 'Test SDK', () => installed.push('first'));
      expect(installed).to.deep.equal(['first']);
      expect(warnings).to.deep.equal([]);
      installUnlessLoaded(true, 'Test SDK', () => installed.push('second'));
      installUnlessLoaded(true, 'Test SDK', () => installed.push('third'));
      expect(installed).to.deep.equal(['first']);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain('sdk-loaded-twice').and.to.contain('The Test SDK script is on the page twice');
    } finally {
      console.warn = warn;
    }
  });
});
