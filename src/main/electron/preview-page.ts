/**
 * Scripts the desktop app runs in a previewed page to find what the agent points at
 * (kept as strings: the page is not ours, and a bundler's rewrite must not reach it).
 * Returns the element's box in viewport coordinates, scrolled into view; null when
 * nothing visible matches a CSS selector or the text it shows.
 */
export const LOCATE = `(function (target) {
  var visible = function (el) {
    var r = el.getBoundingClientRect(); var s = getComputedStyle(el)
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
  }
  var norm = function (t) { return String(t || '').replace(/\\s+/g, ' ').trim().toLowerCase() }
  var el = null
  if (target.selector !== undefined) {
    el = Array.prototype.slice.call(document.querySelectorAll(target.selector)).filter(visible)[0] || null
  } else {
    var want = norm(target.text)
    var all = Array.prototype.slice.call(document.querySelectorAll('body *')).filter(visible)
    var textOf = function (e) { return norm(e.innerText || e.value || e.getAttribute('aria-label') || e.getAttribute('placeholder')) }
    var exact = all.filter(function (e) { return textOf(e) === want })
    var pool = exact.length ? exact : all.filter(function (e) { return textOf(e).indexOf(want) >= 0 })
    el = pool.filter(function (e) { return !pool.some(function (o) { return o !== e && e.contains(o) }) })[0] || null
  }
  if (el && el.tagName === 'LABEL' && el.control) el = el.control
  if (!el) return null
  el.scrollIntoView({ block: 'center', inline: 'center' })
  if (target.focus && typeof el.focus === 'function') el.focus()
  var r = el.getBoundingClientRect()
  return { x: r.x, y: r.y, width: r.width, height: r.height }
})`
