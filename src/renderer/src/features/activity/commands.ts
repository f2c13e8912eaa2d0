import { activity, useActivity } from '../../stores/activity'
import { registerCommands } from '../commands'

export function installActivityCommands(): () => void {
  return registerCommands([
    { id: 'view.activity', category: 'View', title: 'Show Activity (Running Sessions)', keys: 'Mod+Shift+Y', run: () => activity.setOpen(!useActivity.getState().open) },
  ])
}
