import { memo, useEffect, useMemo, useRef, type MouseEvent } from 'react'
import { colorizeCode } from './colorize'
import { renderMarkdown, splitBlocks } from './render'
import { background } from '../../../lib/background'

const Block = memo(function Block({ text, settled }: { text: string; settled: boolean }) {
  const ref = useRef<HTMLDivElement>(null)
  const html = useMemo(() => renderMarkdown(text, { cache: settled }), [text, settled])
  useEffect(() => {
    // A block still being written would be coloured again on every frame: wait until it is done.
    if (!settled || !ref.current || !html.includes('md-code')) return
    colorizeCode(ref.current).catch((error: unknown) => console.warn('[chat] highlighting failed', error))
  }, [html, settled])
  return <div ref={ref} className="md-block" dangerouslySetInnerHTML={{ __html: html }} />
})

function onClick(e: MouseEvent<HTMLDivElement>): void {
  const target = e.target instanceof Element ? e.target : null
  const copy = target?.closest<HTMLButtonElement>('.md-copy')
  if (copy) {
    const element = copy.closest('.md-code')?.querySelector('code')
    const code = element?.dataset.raw ?? element?.textContent ?? ''
    background('navigator.clipboard.writeText', navigator.clipboard.writeText(code).then(() => {
      copy.textContent = 'Copied'
      setTimeout(() => (copy.textContent = 'Copy'), 1200)
    }))
    return
  }
  const link = target?.closest<HTMLAnchorElement>('a[href]')
  if (link) {
    // Never navigate the app's own page; web links open in the browser.
    e.preventDefault()
    if (/^https?:/i.test(link.href)) window.open(link.href, '_blank', 'noopener,noreferrer')
  }
}

/**
 * Sanitized markdown, rendered block by block: while text streams in, only the
 * last block is parsed again.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const blocks = useMemo(() => splitBlocks(text), [text])
  return (
    <div className="md" onClick={onClick}>
      {blocks.map((block, i) => (
        <Block key={i} text={block} settled={!streaming || i < blocks.length - 1} />
      ))}
    </div>
  )
})
