import { useProject } from '../../stores/project'

export function FileViewer() {
  const selected = useProject((s) => s.selected)
  const file = useProject((s) => s.file)
  const error = useProject((s) => s.fileError)
  if (!selected) return <div className="viewer empty muted">Select a file to view it.</div>
  if (error) return <div className="viewer empty error">{error}</div>
  if (!file || file.path !== selected) return <div className="viewer empty muted">Loading…</div>
  return (
    <section className="viewer" aria-label={selected} data-testid="file-viewer">
      <header className="viewer-head">
        <span>{file.path}</span>
        {file.truncated && <span className="muted"> — showing the first part of a large file</span>}
      </header>
      {file.binary ? <div className="empty muted">Binary file ({file.size} bytes)</div> : <pre>{file.content}</pre>}
    </section>
  )
}
