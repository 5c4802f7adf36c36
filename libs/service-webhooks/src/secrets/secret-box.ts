// Moved to @hub/config (the jobs service seals job secrets with it too); kept as a re-export so
// the webhooks files importing it need no change.
export { SecretBox } from '@hub/config';
