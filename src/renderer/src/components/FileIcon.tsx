import { fileIcon, folderIcon } from '../lib/file-icons'
import { Icon } from './Icon'

/** The file-type icon shown before a file's name in the tree, editor tabs and Quick Open. */
export function FileIcon({ path, folder }: { path: string; folder?: { open: boolean } }) {
  const spec = folder ? folderIcon(folder.open) : fileIcon(path)
  return (
    <span className="file-icon" style={{ color: spec.color }} data-icon={spec.icon}>
      <Icon name={spec.icon} />
    </span>
  )
}
