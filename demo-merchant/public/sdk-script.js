/** Loads an SDK script from the payment service; the browser refuses it unless its sha384 matches `integrity`. */
export function loadScript(src, integrity) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.integrity = integrity;
    // A cross-origin integrity check needs CORS.
    script.crossOrigin = 'anonymous';
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}
