import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import { BUILTIN_AGENTS } from '../../../src/main/core/agent/agents'
import type { PromptImage } from '../../../src/main/core/agent/prompt-images'
import { AgentService, type TurnEnvironment } from '../../../src/main/core/agent/service'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { inspectImage } from '../../../src/main/core/images'
import { SessionStore } from '../../../src/main/core/session/store'
import { Storage } from '../../../src/main/core/storage'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { JPEG_40x30, pngImage } from '../../support/images'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'
import { registryFor } from '../provider/helpers'

const servers: FakeLlm[] = []
const opened: Storage[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
  for (const s of opened.splice(0)) s.close()
})

const SCREENSHOT = pngImage(64, 48)

/** A `screenshot` tool that returns an image, the way MCP tools and `read` hand theirs back. */
const screenshotTool: ToolHost = {
  definitions: () => [{ name: 'screenshot', description: 'Take a screenshot', inputSchema: { type: 'object', properties: {} } }],
  execute: () =>
    Promise.resolve({
      output: 'Screenshot taken.',
      isError: false,
      metadata: { attachments: [{ type: 'image', mediaType: 'image/png', data: SCREENSHOT.toString('base64'), filename: 'screen.png' }] },
    }),
}

async function setup(model: string) {
  const fake = await startFakeLlm()
  servers.push(fake)
  const dataDir = tempDir('hotaru-data-')
  const services = testServices({ dataDir })
  const project = services.projects.openFolder(tempDir())
  const store = new SessionStore(services.storage.sessions, services.bus)
  const env: TurnEnvironment = {
    projectRoot: project.root,
    agents: new Map(BUILTIN_AGENTS.map((a) => [a.name, a])),
    tools: screenshotTool,
    system: (agent) => [agent.prompt],
  }
  const agents = new AgentService(store, registryFor(fake), services.bus, async () => env)
  const session = store.create({ projectId: project.id, agent: 'build', model })
  return { fake, store, agents, session, dataDir }
}

const photo = (): PromptImage => ({ original: inspectImage('photo.jpg', JPEG_40x30) })

/** The image blocks of a request body, in each API's own shape. */
function imagesOf(body: unknown): unknown[] {
  const found: unknown[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk)
    else if (typeof value === 'object' && value !== null) {
      const v = value as Record<string, unknown>
      if (v.type === 'image' || v.type === 'image_url') found.push(v)
      else Object.values(v).forEach(walk)
    }
  }
  walk(body)
  return found
}

describe('images in the prompt', () => {
  it('sends an attached image to Claude as a base64 image block before the text, and keeps it across a reload', async () => {
    const { fake, agents, session, dataDir } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ text: 'A red square.' })
    const result = await agents.prompt({ sessionId: session.id, text: 'what is this?', images: [photo()] })
    expect(result.status).toBe('completed')
    expect(fake.requests[0]?.status).toBe(200)
    const messages = (fake.requests[0]?.body as { messages: Array<{ content: unknown[] }> }).messages
    expect(messages[0]?.content.slice(0, 2)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG_40x30.toString('base64') } },
      expect.objectContaining({ type: 'text', text: expect.stringContaining('what is this?') }),
    ])

    // Another process opening the same database sees the image part and its bytes.
    const storage = Storage.open(dataDir)
    opened.push(storage)
    const reopened = new SessionStore(storage.sessions, testServices().bus)
    const [user] = reopened.messages(session.id)
    const part = user?.parts.find((p): p is PartOf<'image'> => p.type === 'image')
    expect(part).toMatchObject({ name: 'photo.jpg', mediaType: 'image/jpeg', width: 40, height: 30, size: JPEG_40x30.length })
    expect(reopened.image(part?.imageId ?? '')?.data).toBe(JPEG_40x30.toString('base64'))
  })

  it('sends the scaled copy when there is one, and the later turns carry the image again', async () => {
    const { fake, agents, session } = await setup('openai/gpt-4.1')
    const big = inspectImage('big.png', pngImage(3000, 2000))
    const scaled = inspectImage('big.png', pngImage(1500, 1000))
    fake.enqueue({ text: 'Big.' }, { text: 'Still big.' })
    await agents.prompt({ sessionId: session.id, text: 'look', images: [{ original: big, scaled }] })
    await agents.prompt({ sessionId: session.id, text: 'again' })
    for (const request of fake.requests) {
      expect(request.status).toBe(200)
      expect(imagesOf(request.body)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${scaled.bytes.toString('base64')}` } }])
    }
  })

  it('refuses images for a model without vision before anything is sent or stored', async () => {
    const { fake, agents, session, store } = await setup('deepseek/deepseek-chat')
    const result = await agents.prompt({ sessionId: session.id, text: 'what is this?', images: [photo()] })
    expect(result).toMatchObject({ status: 'error', error: { name: 'ModelWithoutVision', data: { message: expect.stringContaining('deepseek/deepseek-chat does not accept images') } } })
    expect(fake.requests).toHaveLength(0)
    expect(store.messages(session.id)).toHaveLength(0)
    // The same message goes through once the user picks a model with vision.
    fake.enqueue({ text: 'A red square.' })
    const again = await agents.prompt({ sessionId: session.id, text: 'what is this?', images: [photo()], model: 'anthropic/claude-sonnet-4-5' })
    expect(again.status).toBe('completed')
    expect(imagesOf(fake.requests[0]?.body)).toHaveLength(1)
  })

  it('refuses an image over Anthropic’s 5 MB before the turn, naming the file', async () => {
    const { fake, agents, session } = await setup('anthropic/claude-sonnet-4-5')
    const huge = inspectImage('huge.png', pngImage(1400, 1000, { noise: true }))
    const result = await agents.prompt({ sessionId: session.id, text: 'see', images: [{ original: huge }] })
    expect(result.error).toMatchObject({ name: 'ImageTooLarge', data: { message: expect.stringMatching(/huge\.png is too large for anthropic\/claude-sonnet-4-5: 5\.\d MB encoded, over the 5 MB/) } })
    expect(fake.requests).toHaveLength(0)
  })
})

describe('images in tool results', () => {
  it('reach Claude inside the tool_result block', async () => {
    const { fake, agents, session } = await setup('anthropic/claude-sonnet-4-5')
    fake.enqueue({ toolCalls: [{ name: 'screenshot', args: {} }] }, { text: 'I see it.' })
    expect((await agents.prompt({ sessionId: session.id, text: 'take a screenshot' })).status).toBe('completed')
    expect(fake.requests[1]?.status).toBe(200)
    const messages = (fake.requests[1]?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages
    const result = messages[2]?.content.find((b) => b.type === 'tool_result')
    expect(result?.content).toEqual([
      { type: 'text', text: 'Screenshot taken.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SCREENSHOT.toString('base64') } },
    ])
  })

  it('reach a Chat Completions model in a user message right after the tool results', async () => {
    const { fake, agents, session } = await setup('openai/gpt-4.1')
    fake.enqueue({ toolCalls: [{ name: 'screenshot', args: {} }] }, { text: 'I see it.' })
    expect((await agents.prompt({ sessionId: session.id, text: 'take a screenshot' })).status).toBe('completed')
    expect(fake.requests[1]?.status).toBe(200)
    const messages = (fake.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> }).messages
    expect(messages.slice(-2).map((m) => m.role)).toEqual(['tool', 'user'])
    expect(messages.at(-2)?.content).toContain('attached in the next user message')
    expect(imagesOf(messages.at(-1))).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${SCREENSHOT.toString('base64')}` } }])
  })

  it('reach a Responses API model as input_image, in the prompt and in the function call output', async () => {
    const { fake, agents, session } = await setup('openai/gpt-5-codex')
    fake.enqueue({ toolCalls: [{ name: 'screenshot', args: {} }] }, { text: 'I see both.' })
    expect((await agents.prompt({ sessionId: session.id, text: 'compare with a screenshot', images: [photo()] })).status).toBe('completed')
    expect(fake.requests.map((r) => [r.api, r.status])).toEqual([
      ['responses', 200],
      ['responses', 200],
    ])
    const input = (fake.requests[1]?.body as { input: Array<Record<string, unknown>> }).input
    const user = input.find((item) => item.role === 'user')
    expect(user?.content).toEqual(expect.arrayContaining([{ type: 'input_image', image_url: `data:image/jpeg;base64,${JPEG_40x30.toString('base64')}`, detail: 'auto' }]))
    const output = input.find((item) => item.type === 'function_call_output')
    expect(output?.output).toEqual([
      { type: 'input_text', text: 'Screenshot taken.' },
      { type: 'input_image', image_url: `data:image/png;base64,${SCREENSHOT.toString('base64')}`, detail: 'auto' },
    ])
  })

  it('become a text note for a model without vision', async () => {
    const { fake, agents, session } = await setup('deepseek/deepseek-chat')
    fake.enqueue({ toolCalls: [{ name: 'screenshot', args: {} }] }, { text: 'ok' })
    expect((await agents.prompt({ sessionId: session.id, text: 'take a screenshot' })).status).toBe('completed')
    const body = fake.requests[1]?.body
    expect(imagesOf(body)).toEqual([])
    expect(JSON.stringify(body)).toContain('[image omitted: deepseek/deepseek-chat does not accept images]')
  })
})
