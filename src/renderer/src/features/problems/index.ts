export { ProblemsPanel } from './ProblemsPanel'
export { ProblemCounts } from './ProblemCounts'
export { countProblems, problemsFor, type ProblemsStore } from '../../stores/problems'
