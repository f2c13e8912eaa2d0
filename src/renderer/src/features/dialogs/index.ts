export { DialogHost } from './DialogHost'
export { confirmDialog, promptDialog } from './dialogs'
