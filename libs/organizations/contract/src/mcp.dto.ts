import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { ClosedSchema, OBJECT_ID_PATTERN, rpc } from '@hub/contracts';

/** What a new user's MCP server offers before anyone changes it (decision 0410). */
export const DEFAULT_MCP_BUILT_IN_TOOLS = [
  'hf_whoami',
  'space_search',
  'model_search',
  'dataset_search',
  'paper_search',
  'hub_repo_details',
  'hf_doc_search',
  'hf_doc_fetch',
] as const;

@ClosedSchema()
export class McpSpaceToolView {
  @ApiProperty({ pattern: OBJECT_ID_PATTERN.source })
  @Matches(OBJECT_ID_PATTERN, { message: 'spaceTools[]._id must be a 24-character hexadecimal id' })
  @IsString({ message: 'spaceTools[]._id must be a string' })
  _id!: string;

  @ApiProperty({ description: 'owner/name of the Space' })
  @Length(1, 200, { message: 'spaceTools[].name must be 1..200 characters long' })
  @IsString({ message: 'spaceTools[].name must be a string' })
  name!: string;

  @ApiProperty()
  @Length(0, 16, { message: 'spaceTools[].emoji must be at most 16 characters long' })
  @IsString({ message: 'spaceTools[].emoji must be a string' })
  emoji!: string;

  @ApiProperty()
  @Length(1, 200, { message: 'spaceTools[].subdomain must be 1..200 characters long' })
  @IsString({ message: 'spaceTools[].subdomain must be a string' })
  subdomain!: string;
}

/** `GET /api/settings/mcp` (spec 4.3) and the body of `PUT /admin/users/{name}/mcp`. */
@ClosedSchema()
export class McpSettingsView {
  @ApiProperty({ type: [String] })
  @ArrayMaxSize(100, { message: 'builtInTools must list at most 100 tools' })
  @Length(1, 100, { each: true, message: 'each built-in tool must be 1..100 characters long' })
  @IsString({ each: true, message: 'each built-in tool must be a string' })
  @IsArray({ message: 'builtInTools must be a list' })
  builtInTools!: string[];

  @ApiProperty({ type: [McpSpaceToolView] })
  @ArrayMaxSize(100, { message: 'spaceTools must list at most 100 Spaces' })
  @ValidateNested({ each: true })
  @Type(() => McpSpaceToolView)
  @IsArray({ message: 'spaceTools must be a list' })
  spaceTools!: McpSpaceToolView[];
}

export class McpUserRpc {
  @Matches(OBJECT_ID_PATTERN) userId!: string;
}

export class SetMcpSettingsRpc extends McpUserRpc {
  @ValidateNested()
  @Type(() => McpSettingsView)
  settings!: McpSettingsView;
}

/** A user's MCP settings. */
export const McpRpc = {
  Get: rpc<McpUserRpc, McpSettingsView>('organizations.mcp.get', McpUserRpc),
  Set: rpc<SetMcpSettingsRpc, McpSettingsView>('organizations.mcp.set', SetMcpSettingsRpc),
} as const;
