import { ErrorNames, HotaruError } from '@shared/errors'
import { ruleFile, setRule } from '../../core/permission/overview'
import { loadPolicyInput, rulesInForce } from '../../core/permission/policy'
import type { DomainHandlers } from '../router'

export const permissionHandlers: DomainHandlers<'permission'> = {
  pending: (filter, { services }) => services.permissions.pending(filter),
  reply: async ({ id, reply, feedback, scope }, { services }) => {
    await services.permissions.reply(id, { reply, feedback, scope })
    return { replied: true }
  },
  rules: async ({ projectId, agent }, { services }) => {
    const project = services.projects.get(projectId)
    const root = project.root
    const snapshot = await services.configs.of(project).load()
    // The policy the runtime enforces, with the agent files, custom tools and MCP tools a turn would see now.
    const input = await loadPolicyInput(snapshot, services.mcp.toolsOf(projectId))
    return {
      rules: rulesInForce(agent ?? snapshot.defaults.agent, input),
      files: { user: ruleFile('user', root, services.env), project: ruleFile('project', root, services.env) },
      trusted: snapshot.trust.trusted,
    }
  },
  setRule: async ({ projectId, layer, permission, pattern, action }, { services }) => {
    const project = services.projects.get(projectId)
    // A folder that is not trusted may only narrow: its own `allow` would be written and never apply.
    if (layer === 'project' && action === 'allow' && !(await services.configs.of(project).load()).trust.trusted) {
      throw new HotaruError(ErrorNames.InvalidPayload, {
        message: 'This folder is not trusted, so its own settings can only ask first or block. Trust the folder, or add the rule to your settings for all projects.',
      })
    }
    const file = ruleFile(layer, project.root, services.env)
    setRule(file, permission, pattern, action)
    return { file }
  },
  approvals: async ({ projectId, sessionId }, { services }) =>
    (await services.permissions.approvals(projectId, sessionId)).map((a) => ({
      permission: a.permission,
      pattern: a.pattern,
      scope: a.scope,
      ...(a.scope === 'session' && sessionId ? { sessionId } : {}),
    })),
  revoke: async ({ projectId, permission, pattern, scope, sessionId }, { services }) => ({
    revoked: await services.permissions.revoke(projectId, { permission, pattern }, scope, sessionId),
  }),
}
