import { type EntityManager } from 'typeorm';
import { UserEntity } from './user.entity';

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
};
