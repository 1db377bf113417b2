import { Module } from '@nestjs/common';
import { SessionActivityResolver } from './activity.resolver';
import { ActivityService } from './activity.service';

@Module({ providers: [ActivityService, SessionActivityResolver] })
export class ActivityModule {}
