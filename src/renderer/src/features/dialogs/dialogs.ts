import { create } from 'zustand'

export type DialogRequest =
  | {
      kind: 'confirm'
      title: string
      message: string
      confirmLabel: string
      danger: boolean
      resolve(ok: boolean): void
    }
  | {
      kind: 'prompt'
      title: string
      message?: string
      initial: string
      /** Characters of `initial` preselected (e.g. the name without its extension). */
      select?: [number, number]
      confirmLabel: string
      validate?(value: string): string | null
      resolve(value: string | null): void
    }

export const useDialogs = create<{ current: DialogRequest | null }>(() => ({ current: null }))

/** Asks a yes/no question in a modal; resolves false when cancelled. */
export function confirmDialog(options: { title: string; message: string; confirmLabel?: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    useDialogs.setState({
      current: {
        kind: 'confirm',
        title: options.title,
        message: options.message,
        confirmLabel: options.confirmLabel ?? 'OK',
        danger: options.danger ?? false,
        resolve: (ok) => {
          useDialogs.setState({ current: null })
          resolve(ok)
        },
      },
    })
  })
}

/** Asks for a line of text in a modal; resolves null when cancelled. */
export function promptDialog(options: {
  title: string
  message?: string
  initial?: string
  select?: [number, number]
  confirmLabel?: string
  validate?(value: string): string | null
}): Promise<string | null> {
  return new Promise((resolve) => {
    useDialogs.setState({
      current: {
        kind: 'prompt',
        title: options.title,
        message: options.message,
        initial: options.initial ?? '',
        select: options.select,
        confirmLabel: options.confirmLabel ?? 'OK',
        validate: options.validate,
        resolve: (value) => {
          useDialogs.setState({ current: null })
          resolve(value)
        },
      },
    })
  })
}
