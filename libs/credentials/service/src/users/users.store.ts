import { type EntityManager } from 'typeorm';
import { UserEntity } from './user.entity';
import { avatarUrl } from '@hub/contracts';
import { type UserView } from '@hub/credentials-contract';

export type NewUser = Omit<UserEntity, 'createdAt' | 'managedByOrgId'> & { managedByOrgId?: string };

/** The only reads and writes of `credentials.users`. */
export const UsersStore = {
  byName(m: EntityManager, name: string): Promise<UserEntity | null> {
    return m.findOneBy(UserEntity, { name });
  },

  byId(m: EntityManager, id: string): Promise<UserEntity> {
    return m.findOneByOrFail(UserEntity, { id });
  },

  findById(m: EntityManager, id: string): Promise<UserEntity | null> {
    return m.findOneBy(UserEntity, { id });
  },

  async insert(m: EntityManager, user: NewUser): Promise<void> {
    await m.insert(UserEntity, user);
  },

  /**
   * Up to `limit` users by name after `after`, those whose name, e-mail or full name holds `search`
   * (any case). The unique index on `name` serves the order and the cursor.
   */
  list(m: EntityManager, q: { after?: string; search?: string; limit: number }): Promise<UserEntity[]> {
    const qb = m.createQueryBuilder(UserEntity, 'u');
    if (q.after) qb.andWhere('u.name > :after', { after: q.after });
    if (q.search)
      qb.andWhere(
        '(strpos(lower(u.name), lower(:s)) > 0 OR strpos(lower(u.email), lower(:s)) > 0 OR strpos(lower(u.fullname), lower(:s)) > 0)',
        { s: q.search },
      );
    return qb.orderBy('u.name', 'ASC').limit(q.limit).getMany();
  },
};

/** A user as answered (`UserView`). */
export function toUserView(u: UserEntity, publicUrl: string): UserView {
  return {
    id: u.id,
    name: u.name,
    fullname: u.fullname,
    email: u.email,
    avatarUrl: avatarUrl(publicUrl, u.name),
    isPro: u.isPro,
    createdAt: u.createdAt.toISOString(),
  };
}
