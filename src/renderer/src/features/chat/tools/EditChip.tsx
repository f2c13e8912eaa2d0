import { Icon } from '../../../components/Icon'
import { MiddlePath } from '../../../components/MiddlePath'
import { useShownFolderStore } from '../../../stores/shown-folder'
import { documentsFor } from '../../editor'
import { editedFiles, record, type ToolPart } from './describe'

/**
 * A finished edit in the chat: one compact chip per file ("Edited src/x.ts +4 −1")
 * that opens the file at the change, where the editor shows it inline with
 * Accept / Reject. The diff itself lives in the editor, not in the chat column.
 */
export function EditChips({ part, root, errors }: { part: ToolPart; root: string; errors: number | undefined }) {
  const folder = useShownFolderStore()
  const files = editedFiles(part, root)
  const verb = part.tool === 'write' && record(part.state.metadata).created === true ? 'Created' : 'Edited'
  return (
    <div className="edit-chips" data-testid="tool-card" data-tool={part.tool} data-status={part.state.status} data-call-id={part.callId}>
      {files.map((f) => (
        <button
          key={f.path}
          type="button"
          className="edit-chip"
          data-testid="edit-chip"
          data-path={f.path}
          title={`Open ${f.path} at the change`}
          onClick={() => documentsFor(folder).openAt(f.path, { line: f.line, column: 1, endColumn: 1 })}
        >
          <Icon name="edit" />
          <span className="edit-chip-verb">{verb}</span>
          <MiddlePath path={f.path} />
          <span className="mono">
            <span className="add">+{f.additions}</span> <span className="del">−{f.deletions}</span>
          </span>
          {errors !== undefined && errors > 0 && (
            <span className="tool-problems mono" data-testid="tool-problems" title={`${errors} error${errors === 1 ? '' : 's'} after this edit`}>
              ⨯ {errors}
            </span>
          )}
        </button>
      ))}
    </div>
  )
}
