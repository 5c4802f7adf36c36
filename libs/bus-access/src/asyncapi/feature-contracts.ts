// Loads every module that declares event descriptors (`event()`, `eventFamily()` register
// themselves when their module loads): the shared ones and each feature's contract. The AsyncAPI
// document, the bus client's catalogue and their specs read what these declare (decision 0019).
import '@hub/contracts';
import '@hub/credentials-contract';
import '@hub/jobs-contract';
import '@hub/notifications-contract';
import '@hub/organizations-contract';
import '@hub/webhooks-contract';
