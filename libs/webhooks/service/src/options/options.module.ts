import { GetDeliveryOptionsUseCase } from './get-delivery-options.use-case';
import { PacedClaim } from './paced-claim';
import { SetDeliveryOptionsUseCase } from './set-delivery-options.use-case';

export { DeliveryOptionsHandler } from './delivery-options.handler';

export const OPTIONS_PROVIDERS = [PacedClaim, GetDeliveryOptionsUseCase, SetDeliveryOptionsUseCase];
