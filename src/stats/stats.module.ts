import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { StatsResolver } from './stats.resolver';
import { StatsService } from './stats.service';

/** stats; the HomeIndex comes from the global IndexModule. */
@Module({ imports: [SessionsModule], providers: [StatsService, StatsResolver] })
export class StatsModule {}
