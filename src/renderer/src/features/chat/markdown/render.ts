import DOMPurify from 'dompurify'
import { Marked } from 'marked'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch)
}

/** The first word of a fence's info string ("ts title=x" → "ts"), safe for an attribute. */
function fenceLanguage(lang: string | undefined): string {
  return (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase().replace(/[^a-z0-9_+#.-]/g, '') ?? ''
}

const marked = new Marked({ gfm: true, async: false })
marked.use({
  renderer: {
    // Model output is text: HTML in it is shown, never interpreted.
    html({ text }) {
      return escapeHtml(text)
    },
    code({ text, lang }) {
      const language = fenceLanguage(lang)
      return (
        `<div class="md-code" data-lang="${language}">` +
        `<div class="md-code-head"><span class="md-code-lang">${language || 'text'}</span>` +
        `<button type="button" class="md-copy" aria-label="Copy code">Copy</button></div>` +
        `<pre><code>${escapeHtml(text)}</code></pre></div>`
      )
    },
    // Remote images are blocked by the CSP anyway; a link shows where they point.
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`
    },
  },
})

/** A private DOMPurify instance: its link hook must not affect other users of the library. */
const purify = DOMPurify(window)
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  }
})

const PURIFY_CONFIG = { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'iframe', 'object', 'embed'] }

/** Rendered blocks by source: rows scrolled back into view (virtualized, so re-mounted) skip parsing. */
const cache = new Map<string, string>()
const CACHE_ENTRIES = 3000

/** Markdown → sanitized HTML. Everything that reaches innerHTML goes through here or `sanitize`. */
export function renderMarkdown(text: string, options: { cache?: boolean } = {}): string {
  const hit = cache.get(text)
  if (hit !== undefined) return hit
  const html = purify.sanitize(marked.parse(text, { async: false }), PURIFY_CONFIG)
  // A block still being streamed changes every frame: only finished blocks are kept.
  if (options.cache !== false && text.length < 20_000) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string)
    cache.set(text, html)
  }
  return html
}

export function sanitize(html: string): string {
  return purify.sanitize(html, PURIFY_CONFIG)
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/

/**
 * Splits markdown into top-level blocks at blank lines outside code fences, so
 * a streaming message re-renders only its last block. A blank line followed by
 * an indented line continues the block (list items, nested paragraphs).
 */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let blanks = 0
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1]
    if (fence !== null) {
      current.push(line)
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null
      continue
    }
    if (line.trim() === '') {
      if (current.length > 0) blanks++
      continue
    }
    if (blanks > 0) {
      if (/^[ \t]/.test(line)) for (; blanks > 0; blanks--) current.push('')
      else {
        blocks.push(current.join('\n'))
        current = []
      }
      blanks = 0
    }
    if (marker) fence = marker
    current.push(line)
  }
  if (current.length > 0) blocks.push(current.join('\n'))
  return blocks
}
