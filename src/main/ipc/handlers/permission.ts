import type { DomainHandlers } from '../router'

export const permissionHandlers: DomainHandlers<'permission'> = {
  pending: (filter, { services }) => services.permissions.pending(filter),
  reply: async ({ id, reply, feedback, scope }, { services }) => {
    await services.permissions.reply(id, { reply, feedback, scope })
    return { replied: true }
  },
}
