import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyRequest } from 'fastify';
import { BadRequestError, type RequestContext } from '@hub/contracts';
import {
  NOTIFICATION_SETTING_KEYS,
  NotificationSettingsView,
  NotificationsRpc,
  UpdateNotificationSettingsDto,
  UpdateWatchDto,
  WatchListView,
} from '@hub/notifications-contract';
import { RpcClient } from '@hub/messaging';
import { ApiErrorResponse, Ctx } from '@hub/service-gateway';

const SETTINGS_KEYS: ReadonlySet<string> = new Set([...NOTIFICATION_SETTING_KEYS, 'product_updates_after']);
const BODY_KEYS: ReadonlySet<string> = new Set(['notifications', 'prepaidAmount']);
const WATCH_KEYS: ReadonlySet<string> = new Set(['add', 'delete']);

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('api/settings')
export class NotificationSettingsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('notifications')
  @ApiOperation({ summary: "The caller's notification settings (defaults filled in)" })
  @ApiOkResponse({ type: NotificationSettingsView })
  getSettings(@Ctx() ctx: RequestContext): Promise<NotificationSettingsView> {
    return this.rpc.call(NotificationsRpc.GetSettings, {}, ctx);
  }

  @Patch('notifications')
  @ApiOperation({ summary: 'Change notification settings (only the members given); unknown keys are a 400' })
  @ApiOkResponse({ description: 'The settings after the change', type: NotificationSettingsView })
  @ApiErrorResponse(
    400,
    'An unknown key, a non-boolean, a bad date, prepaidAmount over 24 characters or missing when enabling launch_prepaid_credits',
  )
  updateSettings(
    @Body() dto: UpdateNotificationSettingsDto,
    @Req() req: FastifyRequest,
    @Ctx() ctx: RequestContext,
  ): Promise<NotificationSettingsView> {
    // The validation pipe strips unknown keys; a typo in a setting must not pass silently.
    const raw = req.body as { notifications?: unknown };
    rejectUnknown(raw, BODY_KEYS, '');
    rejectUnknown(raw.notifications, SETTINGS_KEYS, 'notifications.');
    return this.rpc.call(NotificationsRpc.UpdateSettings, dto, ctx);
  }

  @Get('watch')
  @ApiOperation({ summary: "The caller's watch list" })
  @ApiOkResponse({ type: WatchListView })
  getWatch(@Ctx() ctx: RequestContext): Promise<WatchListView> {
    return this.rpc.call(NotificationsRpc.GetWatch, {}, ctx);
  }

  @Patch('watch')
  @ApiOperation({ summary: 'Add and remove watched users, organizations and repositories' })
  @ApiOkResponse({ description: 'The watch list after the change', type: WatchListView })
  @ApiErrorResponse(400, 'A bad item, an unknown key, or more than 1000 watched items')
  updateWatch(
    @Body() dto: UpdateWatchDto,
    @Req() req: FastifyRequest,
    @Ctx() ctx: RequestContext,
  ): Promise<WatchListView> {
    rejectUnknown(req.body, WATCH_KEYS, '');
    return this.rpc.call(NotificationsRpc.UpdateWatch, dto, ctx);
  }
}

function rejectUnknown(value: unknown, allowed: ReadonlySet<string>, prefix: string): void {
  if (typeof value !== 'object' || value === null) return;
  const unknown = Object.keys(value).find((k) => !allowed.has(k));
  if (unknown !== undefined) throw new BadRequestError(`${prefix}${unknown} is not a known setting`);
}
