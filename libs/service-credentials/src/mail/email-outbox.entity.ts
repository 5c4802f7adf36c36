import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Mails are written in the same transaction as what caused them and sent afterwards, so a
 * crash between the two loses nothing and a retry sends nothing twice.
 */
@Entity({ name: 'email_outbox' })
export class EmailOutboxEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id!: string;

  @Column({ type: 'varchar', length: 254 })
  recipient!: string;

  @Column({ type: 'varchar', length: 300 })
  subject!: string;

  @Column({ type: 'text' })
  body!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  /** 'smtp' or 'log' (all-in-one mode without SMTP_URL). */
  @Column({ name: 'sent_via', type: 'varchar', length: 8, nullable: true })
  sentVia!: string | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
