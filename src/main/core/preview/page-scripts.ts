/**
 * Scripts run in the previewed page (as strings: a bundler's rewrite of a function's source must not
 * reach the page). Each is a function expression called with one JSON argument.
 */

/**
 * Finds an element by CSS selector or by the text it shows — exact text first, then text containing
 * it; among matches the innermost one; a label stands for its control — scrolls it into the middle
 * of the viewport, focuses it when asked, and returns its box in viewport and page coordinates
 * (null when nothing visible matches).
 */
export const LOCATE_ELEMENT = `(function (target) {
  var visible = function (el) {
    var r = el.getBoundingClientRect()
    var s = getComputedStyle(el)
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
  }
  var norm = function (t) { return String(t || '').replace(/\\s+/g, ' ').trim().toLowerCase() }
  var el = null
  if (target.selector !== undefined) {
    var all = Array.prototype.slice.call(document.querySelectorAll(target.selector))
    el = all.filter(visible)[0] || all[0] || null
  } else {
    var want = norm(target.text)
    var textOf = function (e) {
      return norm(e.innerText || e.value || e.getAttribute('aria-label') || e.getAttribute('placeholder') || e.getAttribute('alt') || e.getAttribute('title'))
    }
    var candidates = Array.prototype.slice.call(document.querySelectorAll('body *')).filter(visible)
    var exact = candidates.filter(function (e) { return textOf(e) === want })
    var pool = exact.length ? exact : candidates.filter(function (e) { return textOf(e).indexOf(want) >= 0 })
    el = pool.filter(function (e) { return !pool.some(function (o) { return o !== e && e.contains(o) }) })[0] || null
  }
  if (el && el.tagName === 'LABEL' && el.control) el = el.control
  if (!el) return null
  el.scrollIntoView({ block: 'center', inline: 'center' })
  if (target.focus && typeof el.focus === 'function') el.focus()
  var r = el.getBoundingClientRect()
  return { x: r.x, y: r.y, width: r.width, height: r.height, pageX: r.x + window.scrollX, pageY: r.y + window.scrollY, tag: el.tagName.toLowerCase() }
})`
