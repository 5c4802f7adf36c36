import { ApiProperty } from '@nestjs/swagger';

/** What the console needs to know of this hub's settings (decision 0808). */
export class ConsoleConfigView {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The hub's website (HUB_WEBSITE_URL, no trailing slash), where the console links each notification; null: no links",
    example: 'https://huggingface.co',
  })
  websiteUrl!: string | null;
}
