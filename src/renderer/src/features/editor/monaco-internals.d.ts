// The few Monaco internals `monaco-setup.ts` reaches (no public API covers them): the
// package exports its modules under `monaco-editor/<path>.js`, but ships no types for them.
declare module 'monaco-editor/base/browser/ui/hover/hoverDelegateFactory.js' {
  export function setHoverDelegateFactory(factory: (placement: 'mouse' | 'element', enableInstantHover: boolean) => unknown): void
}

declare module 'monaco-editor/editor/standalone/browser/standaloneServices.js' {
  export const StandaloneServices: {
    /** The global services (created on first use; later calls return the same). */
    initialize(overrides: Record<string, unknown>): { createInstance(ctor: unknown, ...args: unknown[]): unknown }
  }
}

declare module 'monaco-editor/platform/hover/browser/hover.js' {
  export const WorkbenchHoverDelegate: unknown
}
