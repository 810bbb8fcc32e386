// The jobs as the queue hands them over (lib/queue/types.ts): the contract between the two.
export { JobDeferred, JobRejected, type JobContext, type JobHandlers, type MonitorJob } from '../../queue/types.js';
