import { rpc } from '@hub/contracts';
import {
  type AuditStreamDeliveriesView,
  type AuditStreamTestView,
  type AuditStreamView,
  AuditStreamOrgRpc,
  AuditStreamRefRpc,
  CreateAuditStreamRpc,
  ListAuditStreamDeliveriesRpc,
  SetAuditStreamStateRpc,
  UpdateAuditStreamRpc,
} from './audit-streams.dto';

/** Audit log streams of an organization (issue 39, decision 0411): `organizations.audit-stream.<verb>`. */
export const AuditStreamsRpc = {
  List: rpc<AuditStreamOrgRpc, AuditStreamView[]>('organizations.audit-stream.list', AuditStreamOrgRpc),
  Create: rpc<CreateAuditStreamRpc, AuditStreamView>('organizations.audit-stream.create', CreateAuditStreamRpc),
  Get: rpc<AuditStreamRefRpc, AuditStreamView>('organizations.audit-stream.get', AuditStreamRefRpc),
  Update: rpc<UpdateAuditStreamRpc, AuditStreamView>('organizations.audit-stream.update', UpdateAuditStreamRpc),
  Delete: rpc<AuditStreamRefRpc, { deleted: true }>('organizations.audit-stream.delete', AuditStreamRefRpc),
  SetState: rpc<SetAuditStreamStateRpc, AuditStreamView>(
    'organizations.audit-stream.set-state',
    SetAuditStreamStateRpc,
  ),
  Test: rpc<AuditStreamRefRpc, AuditStreamTestView>('organizations.audit-stream.test', AuditStreamRefRpc),
  ListDeliveries: rpc<ListAuditStreamDeliveriesRpc, AuditStreamDeliveriesView>(
    'organizations.audit-stream.list-deliveries',
    ListAuditStreamDeliveriesRpc,
  ),
} as const;
