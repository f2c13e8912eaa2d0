import { describe, expect, it } from 'vitest'
import { type ModelMessage, PROVIDER_PRESETS, modelInfo, parseModelId } from '../../../src/main/core/provider'
import { toAnthropicParams } from '../../../src/main/core/provider/transform/anthropic-request'
import { toOpenAIParams } from '../../../src/main/core/provider/transform/openai-request'
import { toResponsesParams } from '../../../src/main/core/provider/transform/responses-request'
import { pngImage } from '../../support/images'

const claude = modelInfo(parseModelId('anthropic/claude-sonnet-4-5'))
const gpt = modelInfo(parseModelId('openai/gpt-4.1'))
const openai = PROVIDER_PRESETS.openai
if (!openai) throw new Error('openai preset missing')

const image = (bytes: Buffer, name?: string) => ({ type: 'image' as const, mediaType: 'image/png' as const, data: bytes.toString('base64'), ...(name ? { name } : {}) })
const small = image(pngImage(20, 10))

function toolTurn(output: Array<{ type: 'text'; text: string } | ReturnType<typeof image>>): ModelMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'take a screenshot' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'screenshot', input: {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'screenshot', output }] },
  ]
}

describe('images in requests', () => {
  it('sends a tool result image to Claude inside its tool_result block', () => {
    const params = toAnthropicParams({ model: claude.id, messages: toolTurn([{ type: 'text', text: 'done' }, small]) }, claude)
    const result = params.messages[2]?.content
    expect(result).toEqual([
      expect.objectContaining({
        type: 'tool_result',
        content: [{ type: 'text', text: 'done' }, expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: small.data } })],
      }),
    ])
  })

  it('answers the tool in text and sends its image in a user message right after, for Chat Completions', () => {
    const params = toOpenAIParams({ model: gpt.id, messages: toolTurn([{ type: 'text', text: 'done' }, small]) }, gpt, openai)
    expect(params.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'done\n[image 1 of this result is attached in the next user message]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the screenshot call call_1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${small.data}` } },
        ],
      },
    ])
  })

  it('replaces an image the API would refuse with a note instead of failing every later request', () => {
    const tall = image(pngImage(10, 9000), 'tall.png')
    const params = toAnthropicParams({ model: claude.id, messages: [{ role: 'user', content: [tall, { type: 'text', text: 'look' }] }] }, claude)
    expect(params.messages[0]?.content).toEqual([
      { type: 'text', text: '[image tall.png omitted: 10×9000 px, over the 8000 px the API takes per side]' },
      expect.objectContaining({ type: 'text', text: 'look' }),
    ])
    // OpenAI has no such side limit: the same image goes through.
    const sent = toOpenAIParams({ model: gpt.id, messages: [{ role: 'user', content: [tall] }] }, gpt, openai)
    expect(JSON.stringify(sent.messages)).toContain('data:image/png;base64,')
  })

  it('sends images to the Responses API as input_image, in the prompt and in function call outputs', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [small, { type: 'text', text: 'look' }] },
      ...toolTurn([{ type: 'text', text: 'done' }, small]).slice(1),
    ]
    const params = toResponsesParams({ model: gpt.id, messages }, gpt, openai)
    const url = `data:image/png;base64,${small.data}`
    expect(params.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: url, detail: 'auto' }, { type: 'input_text', text: 'look' }] },
      expect.objectContaining({ type: 'function_call', call_id: 'call_1' }),
      { type: 'function_call_output', call_id: 'call_1', output: [{ type: 'input_text', text: 'done' }, { type: 'input_image', image_url: url, detail: 'auto' }] },
    ])
  })

  it('keeps the newest images when a request holds more than the API takes', () => {
    const many: ModelMessage[] = Array.from({ length: 101 }, (_, i) => ({ role: 'user' as const, content: [image(pngImage(2, 2), `shot-${i}.png`)] }))
    const params = toAnthropicParams({ model: claude.id, messages: many }, claude)
    const blocks = params.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    expect(blocks.filter((b) => b.type === 'image')).toHaveLength(100)
    expect(blocks[0]).toMatchObject({ type: 'text', text: expect.stringContaining('shot-0.png omitted') })
  })
})
