import { background } from '../lib/background'
import { useEffect, useId, useState, type InputHTMLAttributes } from 'react'
import { useWorkspace } from '../stores/workspace'

interface PathInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'list'> {
  value: string
  onChange(value: string): void
}

/** A folder path field that completes absolute and `~/…` paths from the machine's folders (core, over IPC). */
export function PathInput({ value, onChange, ...rest }: PathInputProps) {
  const bridge = useWorkspace((s) => s.bridge)
  const listId = useId()
  const [folders, setFolders] = useState<string[]>([])
  useEffect(() => {
    if (!bridge || !(value.startsWith('/') || value.startsWith('~'))) return
    let live = true
    const timer = setTimeout(() => {
      background('bridge.project.completePath', bridge.project.completePath({ path: value }).then((result) => {
        if (live && result.ok) setFolders(result.value.folders)
      }))
    }, 120)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [bridge, value])
  return (
    <>
      <input {...rest} value={value} list={listId} onChange={(e) => onChange(e.target.value)} />
      <datalist id={listId}>
        {folders.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
    </>
  )
}
