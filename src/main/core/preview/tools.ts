import { z } from 'zod'
import type { PreviewConsoleEntry, PreviewStatus } from '@shared/schema/preview'
import { Permission } from '../permission/names'
import { ToolError } from '../tools/errors'
import { defineTool, type Tool, type ToolContext, type ToolOutput } from '../tools/tool'
import type { ElementTarget } from './driver'
import type { PreviewService } from './service'

/** Screenshots reach the model at most this wide: readable text, about a thousand image tokens. */
const SCREENSHOT_WIDTH = 1024
/** Console entries a call returns at most (the newest). */
const CONSOLE_SHOWN = 50

const targetShape = {
  selector: z.string().min(1).optional().describe('CSS selector of the element'),
  visibleText: z.string().min(1).optional().describe('Text the element shows (or its label, placeholder, aria-label) — used when no selector is given'),
}

function targetOf(args: { selector?: string | undefined; visibleText?: string | undefined }, required: boolean): ElementTarget | undefined {
  if (args.selector !== undefined) return { selector: args.selector }
  if (args.visibleText !== undefined) return { text: args.visibleText }
  if (required) throw new ToolError('Name the element: give "selector" (CSS) or "visibleText".')
  return undefined
}

function describeTarget(target: ElementTarget | undefined): string {
  if (!target) return 'the viewport'
  return 'selector' in target ? target.selector : `"${target.text}"`
}

function statusLine(status: PreviewStatus): string {
  const where = status.url ? ` at ${status.url}` : ''
  const tab = status.terminalId ? ` (output in terminal ${status.terminalId})` : ''
  const what = status.name ? `"${status.name}" (${status.source})` : ''
  switch (status.state) {
    case 'stopped':
      return status.name ? `The preview ${what} is stopped.` : 'No preview has been started.'
    case 'starting':
      return `The preview ${what} is starting${where}${tab}.`
    case 'ready':
      return `The preview ${what} is ready${where}${tab}.`
    case 'failed':
    case 'exited':
      return `The preview ${what} ${status.state === 'failed' ? 'failed to start' : 'has exited'}: ${status.error ?? 'unknown reason'}${tab}.`
  }
}

export function formatEntries(entries: readonly PreviewConsoleEntry[]): string {
  return entries
    .map((entry) => {
      const where = entry.url ? ` (${entry.url}${entry.line !== undefined ? `:${entry.line}` : ''})` : ''
      const kind = entry.kind === 'console' ? '' : ` ${entry.kind}`
      return `[${entry.level}${kind}] ${entry.text}${entry.kind === 'request' ? '' : where}`
    })
    .join('\n')
}

/** New errors since `since`: appended to an interaction's result so the model sees what it broke. */
function errorsSince(preview: PreviewService, since: number): string {
  const errors = preview.console({ since: since - 1 }).filter((entry) => entry.level === 'error')
  if (errors.length === 0) return ''
  return `\n\nNew errors in the page:\n${formatEntries(errors.slice(-CONSOLE_SHOWN))}`
}

async function ask(ctx: ToolContext, title: string, pattern = '*'): Promise<void> {
  await ctx.ask({ permission: Permission.Preview, patterns: [pattern], always: ['*'], title })
}

/**
 * The agent's preview tools: start the project's dev server, look at the page (screenshot, console)
 * and drive it (navigate, click, type), in the browser the preview service opens.
 */
export function createPreviewTools(previewOf: (projectId: string) => PreviewService): Tool[] {
  const start = defineTool({
    id: 'preview_start',
    description:
      "Starts the project's dev server for a preview (from .hotaru/launch.json, else a package.json dev/start script, Vite, Next or a plain index.html) on the project's own port, and waits until its URL answers. Returns the URL. A running preview is kept.",
    parameters: z.object({ name: z.string().min(1).optional().describe('Launch configuration name (default: the first, or the detected one)') }),
    mutatesFiles: false,
    async execute(args, ctx) {
      await ask(ctx, `Start the preview${args.name ? ` "${args.name}"` : ''}`, args.name ?? '*')
      const status = await previewOf(ctx.projectId).start(args.name === undefined ? {} : { name: args.name })
      return { title: `preview ${status.name ?? ''}`.trim(), output: statusLine(status), metadata: { preview: status } }
    },
  })
  const status = defineTool({
    id: 'preview_status',
    description: 'Says whether the preview is running, its URL and port, and how many errors its page logged.',
    parameters: z.object({}),
    mutatesFiles: false,
    async execute(_args, ctx) {
      await ask(ctx, 'Read the preview status')
      const preview = previewOf(ctx.projectId)
      const current = preview.status()
      const errors = preview.console().filter((entry) => entry.level === 'error').length
      return { title: 'preview status', output: `${statusLine(current)}${current.state === 'ready' ? ` The page logged ${errors} error(s).` : ''}`, metadata: { preview: current } }
    },
  })
  const screenshot = defineTool({
    id: 'preview_screenshot',
    description:
      'Takes a screenshot of the preview page (the viewport, or one element by CSS selector or visible text), returned as an image. Use it to check layout and visual changes.',
    parameters: z.object({ ...targetShape, maxWidth: z.number().int().min(200).max(1600).optional().describe(`Scale down to at most this width (default ${SCREENSHOT_WIDTH})`) }),
    mutatesFiles: false,
    async execute(args, ctx): Promise<ToolOutput> {
      const target = targetOf(args, false)
      await ask(ctx, `Screenshot of ${describeTarget(target)}`)
      const driver = await previewOf(ctx.projectId).driver()
      const shot = await driver.screenshot({ ...(target ? { target } : {}), maxWidth: args.maxWidth ?? SCREENSHOT_WIDTH })
      return {
        title: `screenshot ${shot.url}`,
        output: `Screenshot of ${describeTarget(target)} at ${shot.url} (${shot.width}×${shot.height}) is attached.`,
        metadata: { url: shot.url, width: shot.width, height: shot.height },
        attachments: [{ type: 'image', mediaType: shot.mediaType, data: shot.data.toString('base64'), filename: 'preview.jpg' }],
      }
    },
  })
  const consoleTool = defineTool({
    id: 'preview_console',
    description:
      "Reads the preview page's recent console messages, uncaught exceptions and failed requests. With reload: true the page is reloaded first and only what it logs from then on is shown (to check that an error is gone after a fix).",
    parameters: z.object({
      reload: z.boolean().optional().describe('Reload the page first and show only what it logs after'),
      errorsOnly: z.boolean().optional().describe('Only errors'),
    }),
    mutatesFiles: false,
    async execute(args, ctx) {
      await ask(ctx, args.reload ? 'Reload the preview and read its console' : 'Read the preview console')
      const preview = previewOf(ctx.projectId)
      const driver = await preview.driver()
      if (args.reload) {
        preview.clearConsole()
        await driver.reload()
      }
      const entries = preview.console().filter((entry) => !args.errorsOnly || entry.level === 'error')
      const shown = entries.slice(-CONSOLE_SHOWN)
      const errors = entries.filter((entry) => entry.level === 'error').length
      const header = entries.length === 0 ? 'The console is empty: no messages, errors or failed requests.' : `${entries.length} entries, ${errors} error(s)${entries.length > shown.length ? ` (the last ${shown.length} shown)` : ''}:`
      return { title: `console of ${await driver.url()}`, output: entries.length === 0 ? header : `${header}\n${formatEntries(shown)}`, metadata: { entries: entries.length, errors } }
    },
  })
  const navigate = defineTool({
    id: 'preview_navigate',
    description:
      "Loads a URL (or a path such as /settings) in the preview page and waits for it to load; without url it reloads the page. Only the project's own loopback ports can be loaded.",
    parameters: z.object({ url: z.string().min(1).optional().describe('Absolute loopback URL, or a path relative to the preview URL') }),
    mutatesFiles: false,
    async execute(args, ctx) {
      const preview = previewOf(ctx.projectId)
      const base = preview.status().url
      const url = args.url === undefined ? undefined : new URL(args.url, base).href
      await ask(ctx, url ? `Open ${url} in the preview` : 'Reload the preview', url ?? '*')
      const driver = await preview.driver()
      const since = Date.now()
      if (url) await driver.navigate(url)
      else await driver.reload()
      const now = await driver.url()
      return { title: `navigate ${now}`, output: `Loaded ${now}.${errorsSince(preview, since)}`, metadata: { url: now } }
    },
  })
  const click = defineTool({
    id: 'preview_click',
    description: 'Clicks an element of the preview page, found by CSS selector or by the text it shows. Reports errors the page logged after the click.',
    parameters: z.object(targetShape),
    mutatesFiles: false,
    async execute(args, ctx) {
      const target = targetOf(args, true) as ElementTarget
      await ask(ctx, `Click ${describeTarget(target)} in the preview`)
      const preview = previewOf(ctx.projectId)
      const driver = await preview.driver()
      const since = Date.now()
      await driver.click(target)
      return { title: `click ${describeTarget(target)}`, output: `Clicked ${describeTarget(target)}.${errorsSince(preview, since)}`, metadata: {} }
    },
  })
  const type = defineTool({
    id: 'preview_type',
    description: 'Types text into a field of the preview page, found by CSS selector or by its label, placeholder or text; submit: true presses Enter after.',
    parameters: z.object({ ...targetShape, text: z.string().describe('The text to type'), submit: z.boolean().optional().describe('Press Enter after typing') }),
    mutatesFiles: false,
    async execute(args, ctx) {
      const target = targetOf(args, true) as ElementTarget
      await ask(ctx, `Type into ${describeTarget(target)} in the preview`)
      const preview = previewOf(ctx.projectId)
      const driver = await preview.driver()
      const since = Date.now()
      await driver.type(target, args.text, { submit: args.submit === true })
      return { title: `type into ${describeTarget(target)}`, output: `Typed ${JSON.stringify(args.text)} into ${describeTarget(target)}${args.submit ? ' and pressed Enter' : ''}.${errorsSince(preview, since)}`, metadata: {} }
    },
  })
  return [start, status, screenshot, consoleTool, navigate, click, type]
}
