import { ruleFile, rulesInEffect, setRule } from '../../core/permission/overview'
import type { DomainHandlers } from '../router'

export const permissionHandlers: DomainHandlers<'permission'> = {
  pending: (filter, { services }) => services.permissions.pending(filter),
  reply: async ({ id, reply, feedback, scope }, { services }) => {
    await services.permissions.reply(id, { reply, feedback, scope })
    return { replied: true }
  },
  rules: async ({ projectId, agent }, { services }) => {
    const root = services.projects.get(projectId).root
    return { rules: await rulesInEffect(root, agent ?? 'build'), files: { user: ruleFile('user', root), project: ruleFile('project', root) } }
  },
  setRule: ({ projectId, layer, permission, pattern, action }, { services }) => {
    const file = ruleFile(layer, services.projects.get(projectId).root)
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
