export { NoticesButton } from './NoticesButton'
export { noticesFor } from '../../stores/notices'
