/** A native "choose a folder" dialog; only the desktop app has one. */
export interface FolderPicker {
  pickFolder(): Promise<string | null>
}
