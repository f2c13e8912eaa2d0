import { join } from 'node:path'
import { writeConfigValue } from '../../core/config/writer'
import { PROJECT_MCP_JSON } from '../../core/mcp/project-mcp-json'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { Services } from '../../core/services'
import type { DomainHandlers } from '../router'

function managerOf(services: Services, projectId: string) {
  services.projects.get(projectId)
  const manager = services.mcp.manager(projectId)
  if (!manager) throw new HotaruError(ErrorNames.NotFound, { message: 'this project has no MCP servers configured' })
  return manager
}

export const mcpHandlers: DomainHandlers<'mcp'> = {
  list: ({ projectId }, { services }) => {
    services.projects.get(projectId)
    return services.mcp.statuses(projectId)
  },
  reload: async ({ projectId }, { services }) => {
    const project = services.projects.get(projectId)
    return services.mcp.reload(project, await services.configs.of(project).load())
  },
  saveServer: async ({ projectId, name, command, args, env }, { services }) => {
    const project = services.projects.get(projectId)
    writeConfigValue(join(project.root, PROJECT_MCP_JSON), ['mcpServers', name], { command, args, ...(env && Object.keys(env).length > 0 ? { env } : {}) })
    return services.mcp.reload(project, await services.configs.of(project).load())
  },
  restart: ({ projectId, name }, { services }) => managerOf(services, projectId).restart(name),
  enable: ({ projectId, name }, { services }) => managerOf(services, projectId).enable(name),
  disable: ({ projectId, name }, { services }) => managerOf(services, projectId).disable(name),
  authenticate: ({ projectId, name }, { services }) => managerOf(services, projectId).authenticate(name),
  resources: async ({ projectId }, { services }) => {
    services.projects.get(projectId)
    return (await services.mcp.manager(projectId)?.listResources()) ?? { items: [], errors: [] }
  },
  readResource: ({ projectId, server, uri }, { services }) => managerOf(services, projectId).readResource(server, uri),
  prompts: async ({ projectId }, { services }) => {
    services.projects.get(projectId)
    return (await services.mcp.manager(projectId)?.listPrompts()) ?? { items: [], errors: [] }
  },
  getPrompt: async ({ projectId, server, name, args }, { services }) => {
    const result = await managerOf(services, projectId).getPrompt(server, name, args)
    const text = result.messages
      .map((m) => m.content.flatMap((c) => (c.type === 'text' ? [c.text] : ['[image]'])).join('\n'))
      .join('\n\n')
    return { text }
  },
}
