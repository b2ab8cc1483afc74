/* global document */
// A built lazy script as lazy-script.test.ts loads it: it hands its value to the element that loaded it.
document.currentScript?.dispatchEvent(new CustomEvent('svc-lazy-script', { detail: { answer: 42 } }));
