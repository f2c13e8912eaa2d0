import { z } from 'zod'
import { Permission } from '../permission/names'
import { ToolError } from './errors'
import { defineTool, type ToolAttachment } from './tool'
import description from './webfetch.txt?raw'

export const WEBFETCH_MAX_BYTES = 5 * 1024 * 1024
export const WEBFETCH_DEFAULT_TIMEOUT_S = 30
export const WEBFETCH_MAX_TIMEOUT_S = 120

const parameters = z.object({
  url: z.string().describe('The http(s) URL to fetch'),
  format: z.enum(['markdown', 'text', 'html']).optional().describe('How to return the content (default markdown)'),
  timeout: z.number().positive().max(WEBFETCH_MAX_TIMEOUT_S).optional().describe('Timeout in seconds (default 30, max 120)'),
})

function parseUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ToolError(`"${raw}" is not a valid URL. Give a full URL starting with http:// or https://.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError(`Only http and https URLs can be fetched, not ${url.protocol}`)
  return url
}

async function readCapped(response: Response, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? '0')
  if (declared > WEBFETCH_MAX_BYTES) throw new ToolError(`The response is ${declared} bytes, over the ${WEBFETCH_MAX_BYTES} byte limit.`)
  if (!response.body) return Buffer.alloc(0)
  const reader = response.body.getReader()
  const chunks: Buffer[] = []
  let size = 0
  for (;;) {
    signal.throwIfAborted()
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > WEBFETCH_MAX_BYTES) {
      await reader.cancel()
      throw new ToolError(`The response is larger than the ${WEBFETCH_MAX_BYTES} byte limit.`)
    }
    chunks.push(Buffer.from(value))
  }
  return Buffer.concat(chunks)
}

const DROPPED_ELEMENTS = ['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'template'] as const

/** Turndown is loaded on first use: it is large and only web fetches need it. */
export async function htmlToMarkdown(html: string): Promise<string> {
  const { default: TurndownService } = await import('turndown')
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
  service.remove([...DROPPED_ELEMENTS])
  return service.turndown(html)
}

export function htmlToText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' }
  return html
    .replace(new RegExp(`<(${DROPPED_ELEMENTS.join('|')})\\b[\\s\\S]*?</\\1>`, 'gi'), '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => entities[name] ?? '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*\n+/g, '\n\n')
    .trim()
}

export const webfetchTool = defineTool({
  id: 'webfetch',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const url = parseUrl(args.url)
    await ctx.ask({ permission: Permission.WebFetch, patterns: [url.href], always: [`${url.origin}/*`], title: `Fetch ${url.href}`, metadata: { url: url.href } })
    const timeoutS = args.timeout ?? WEBFETCH_DEFAULT_TIMEOUT_S
    // One controller for both the user's abort and the time limit (AbortSignal.any with a timeout signal is unreliable on Node 20).
    const controller = new AbortController()
    const signal = controller.signal
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort(new Error('timeout'))
    }, timeoutS * 1000)
    const onAbort = (): void => controller.abort(ctx.signal.reason)
    ctx.signal.addEventListener('abort', onAbort, { once: true })
    let response: Response
    let body: Buffer
    try {
      response = await fetch(url, { signal, redirect: 'follow', headers: { 'user-agent': 'Hotaru (coding agent)', accept: 'text/html,text/markdown,text/plain,*/*;q=0.8' } })
      if (!/^https?:$/.test(new URL(response.url || url.href).protocol)) throw new ToolError('The URL redirected to a non-http(s) address.')
      body = await readCapped(response, signal)
    } catch (error) {
      if (error instanceof ToolError || ctx.signal.aborted) throw error
      if (timedOut) throw new ToolError(`Fetching ${url.href} timed out after ${timeoutS} s.`)
      const cause = (error as { cause?: { message?: string } }).cause?.message
      throw new ToolError(`Fetching ${url.href} failed: ${(error as Error).message}${cause ? ` (${cause})` : ''}`)
    } finally {
      clearTimeout(timer)
      ctx.signal.removeEventListener('abort', onAbort)
    }
    if (!response.ok) throw new ToolError(`Fetching ${url.href} failed with HTTP ${response.status} ${response.statusText}.`)
    const type = (response.headers.get('content-type') ?? '').toLowerCase()
    const metadata = { url: response.url || url.href, status: response.status, contentType: type, bytes: body.length }
    if (type.startsWith('image/') && !type.includes('svg')) {
      const attachment: ToolAttachment = { type: 'image', mediaType: type.split(';')[0] as string, data: body.toString('base64') }
      return { title: url.href, output: `Image from ${url.href} (${body.length} bytes) is attached.`, metadata, attachments: [attachment] }
    }
    const isText = type === '' || type.startsWith('text/') || /json|xml|javascript|yaml|toml|markdown/.test(type)
    if (!isText) throw new ToolError(`${url.href} returned ${type}, which is not text.`)
    const text = body.toString('utf8')
    const isHtml = type.includes('html') || (type === '' && /<html[\s>]/i.test(text))
    const format = args.format ?? 'markdown'
    const output = !isHtml || format === 'html' ? text : format === 'markdown' ? await htmlToMarkdown(text) : htmlToText(text)
    return { title: url.href, output, metadata: { ...metadata, format } }
  },
})
