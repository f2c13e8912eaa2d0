import { useEffect, useState } from 'react'

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const minutes = Math.floor(ms / 60_000)
  return `${minutes}m ${Math.floor((ms % 60_000) / 1000)}s`
}

/** Time since `start` (ticking while `end` is unknown), or the fixed span start→end. */
export function Elapsed({ start, end }: { start?: number; end?: number }) {
  const [now, setNow] = useState(() => Date.now())
  const live = start !== undefined && end === undefined
  useEffect(() => {
    if (!live) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [live])
  if (start === undefined) return null
  return <span className="elapsed">{formatDuration((end ?? now) - start)}</span>
}
