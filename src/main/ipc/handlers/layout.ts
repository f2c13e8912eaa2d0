import { LayoutStore } from '../../core/project/layout-store'
import type { DomainHandlers } from '../router'

export const layoutHandlers: DomainHandlers<'layout'> = {
  get: ({ projectId }, { services }) => new LayoutStore(services.storage.kv).get(projectId),
  set: ({ projectId, layout }, { services }) => {
    services.projects.get(projectId) // only open projects have a layout to save
    new LayoutStore(services.storage.kv).set(projectId, layout)
    return {}
  },
  getTabs: (_input, { services, connection }) => {
    const order = services.projects.list().map((p) => p.id)
    for (const id of order) connection.show(id)
    const active = new LayoutStore(services.storage.kv).activeProject()
    return { order, activeId: active !== null && order.includes(active) ? active : (order[0] ?? null) }
  },
  setTabs: ({ order, activeId }, { services }) => {
    const sorted = services.projects.reorder(order).map((p) => p.id)
    const active = activeId !== null && sorted.includes(activeId) ? activeId : null
    new LayoutStore(services.storage.kv).setActiveProject(active)
    return { order: sorted, activeId: active }
  },
}
