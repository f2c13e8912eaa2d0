import { resolveAgents } from '../../core/agent/agents'
import { inspectImage } from '../../core/images'
import { MODEL_CATALOG, isToggleOnly } from '../../core/provider'
import type { DomainHandlers } from '../router'
import { detached } from '../../core/util/detached'

export const agentHandlers: DomainHandlers<'agent'> = {
  prompt: async ({ sessionId, text, agent, model, effort, images }, { services }) => {
    const session = services.sessions.get(sessionId)
    services.projects.get(session.projectId)
    // Types and sizes are read from the bytes here, whatever the page said.
    const attached = (images ?? []).map((image) => ({
      original: inspectImage(image.name, Buffer.from(image.data, 'base64')),
      ...(image.scaled ? { scaled: inspectImage(image.name, Buffer.from(image.scaled, 'base64')) } : {}),
    }))
    const submitted = services.agents.submit({ sessionId, text: services.reviews.withNote(sessionId, text), agent, model, effort, images: attached })
    // Changes rejected in the review since the last message are told to the model ahead of this one.
    // The turn runs on; its progress and end arrive as session and agent events (`done` never rejects).
    detached('agent.prompt', submitted.done)
    // Answers once the user message is in the transcript (a queued prompt: when its turn starts), so the
    // caller can match its pending copy by id; a turn that ends before that answers with its error.
    return { queued: submitted.queued, messageId: await submitted.messageId }
  },
  abort: ({ sessionId }, { services }) => ({ aborted: services.agents.abort(sessionId) }),
  compact: async ({ sessionId, upToMessageId }, { services }) => {
    const result = await services.agents.compact(sessionId, { upToMessageId })
    return { messageId: result.messageId, covered: result.covered }
  },
  agents: async ({ projectId }, { services }) => {
    const project = services.projects.get(projectId)
    const { config } = await services.configs.of(project).load()
    return [...resolveAgents(config).values()]
      .filter((a) => !a.hidden)
      .map((a) => ({ name: a.name, description: a.description, mode: a.mode, ...(a.model ? { model: a.model } : {}) }))
  },
  models: (_input, { services }) =>
    Object.entries(MODEL_CATALOG).flatMap(([providerId, models]) =>
      Object.keys(models).map((modelId) => {
        const info = services.providers.model(`${providerId}/${modelId}`)
        return {
          id: info.id,
          name: info.name,
          providerId,
          context: info.limit.context,
          output: info.limit.output,
          reasoning: info.capabilities.reasoning,
          images: info.capabilities.images,
          efforts: info.efforts,
          defaultEffort: info.defaultEffort,
          effortToggle: isToggleOnly(info.reasoning),
          ...(info.deprecation ? { deprecation: info.deprecation } : {}),
        }
      }),
    ),
}
