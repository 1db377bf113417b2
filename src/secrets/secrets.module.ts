import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SecretFindingResolver, SessionSecretsResolver } from './secrets.resolver';
import { SecretsService } from './secrets.service';

/** Session.secrets and secretExposures; the HomeIndex comes from the global IndexModule. */
@Module({
  imports: [SessionsModule],
  providers: [SecretsService, SessionSecretsResolver, SecretFindingResolver],
})
export class SecretsModule {}
