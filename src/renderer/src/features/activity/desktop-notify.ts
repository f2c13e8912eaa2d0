/** The page's permission for system notifications, or 'unsupported' where there is no Notification API. */
export function desktopNotifications(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/** Asks the browser (or Electron) for system notifications; answers with the outcome. */
export async function enableDesktopNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported'
  return await Notification.requestPermission()
}

/**
 * A system notification when the window is not in front (hidden or unfocused) and the user allowed them;
 * a click brings the window forward and runs `onClick`. Returns a closer, or null when none was shown.
 */
export function showDesktopNotification(title: string, body: string, tag: string, onClick: () => void): (() => void) | null {
  if (desktopNotifications() !== 'granted') return null
  if (document.visibilityState === 'visible' && document.hasFocus()) return null
  const notification = new Notification(title, { body, tag })
  notification.onclick = () => {
    window.focus()
    onClick()
    notification.close()
  }
  return () => notification.close()
}
