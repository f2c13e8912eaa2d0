/**
 * The script the preview origin adds to every HTML page it serves. It runs in the
 * previewed page (a different origin from the UI) and talks to the pane only by
 * postMessage: it reports console errors and warnings, uncaught errors, failed
 * resource loads and where the page is; it goes back, forward or reloads when the
 * pane asks; links to other sites open in a new browser tab instead of the frame.
 */
export function previewClientScript(uiOrigins: readonly string[]): string {
  return `(() => {
  const parents = ${JSON.stringify(uiOrigins)};
  const post = (message) => {
    if (window.parent === window) return;
    for (const origin of parents) window.parent.postMessage({ hotaruPreview: 1, ...message }, origin);
  };
  const text = (value) => {
    if (value instanceof Error) return value.stack || String(value);
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value); } catch { return String(value); }
  };
  for (const [method, level] of [['error', 'error'], ['warn', 'warning']]) {
    const original = console[method].bind(console);
    console[method] = (...args) => {
      post({ kind: 'console', entry: { kind: 'console', level, text: args.map(text).join(' ').slice(0, 4000) } });
      original(...args);
    };
  }
  window.addEventListener('error', (event) => {
    const target = event.target;
    if (target && target !== window && (target.src || target.href)) {
      post({ kind: 'console', entry: { kind: 'request', level: 'error', text: 'Failed to load ' + (target.src || target.href), url: target.src || target.href } });
      return;
    }
    const origin = event.filename ? { url: event.filename, line: event.lineno } : {};
    post({ kind: 'console', entry: { kind: 'exception', level: 'error', text: 'Uncaught ' + text(event.error || event.message), ...origin } });
  }, true);
  window.addEventListener('unhandledrejection', (event) => {
    post({ kind: 'console', entry: { kind: 'exception', level: 'error', text: 'Uncaught (in promise) ' + text(event.reason) } });
  });
  const where = () => {
    const nav = window.navigation;
    post({ kind: 'navigated', url: location.href, title: document.title,
      canGoBack: nav ? nav.canGoBack : history.length > 1, canGoForward: nav ? nav.canGoForward : false });
  };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name].bind(history);
    history[name] = (...args) => { const result = original(...args); where(); return result; };
  }
  window.addEventListener('popstate', where);
  window.addEventListener('hashchange', where);
  window.addEventListener('DOMContentLoaded', where);
  window.addEventListener('load', where);
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || event.defaultPrevented) return;
    const url = new URL(link.href, location.href);
    if (url.origin === location.origin) return;
    event.preventDefault();
    if (url.protocol === 'http:' || url.protocol === 'https:') window.open(url.href, '_blank', 'noopener,noreferrer');
  }, true);
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || !parents.includes(event.origin)) return;
    const action = event.data && event.data.hotaruPreview === 1 ? event.data.action : null;
    if (action === 'back') history.back();
    else if (action === 'forward') history.forward();
    else if (action === 'reload') location.reload();
  });
})();
`
}
