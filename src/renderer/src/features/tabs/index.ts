export { ProjectTabs } from './ProjectTabs'
